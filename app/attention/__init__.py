"""Being told (issue 17): unread answers and pending permissions counted from the bus, native
notifications while the window is not focused, the window title's count and the dock badge."""
