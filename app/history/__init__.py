"""History: channels, members, finished messages and agents' commands, per configuration file."""
