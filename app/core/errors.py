"""Errors meant for a person: the UI shows their message (the JS promise rejects with it)."""


class UserError(Exception):
    """A request the app refuses, with a message a person understands."""


class ConfigError(UserError):
    """A configuration file that cannot be opened or saved."""
