"""The agent gallery (issue 27): the ACP Registry's agents (fetched, cached, or the built-in
short list), the ACP programs found on PATH, binary installs into the data folder, and adding
an agent to the YAML through the round-trip editor."""
