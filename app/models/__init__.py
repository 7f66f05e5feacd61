"""The models every feature shares (the wire shapes of the SPEC): a leaf that imports no feature.

history, events, channels, agents, config and the bridge import from here; nothing here imports
them (import-linter holds that line: see pyproject.toml).
"""
