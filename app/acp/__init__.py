"""Agent processes: our own spawn and stop, and the ACP connection (the official SDK) over stdio."""
