"""The core loop thread and the errors services return to the page."""
