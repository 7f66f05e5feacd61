"""The desktop shell: the pywebview window, the service bridge, the event pump, native dialogs."""
