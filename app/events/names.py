"""Every event the backend sends to the page, named exactly as in SPEC §2 and §4."""

from typing import Final

CONFIG_CHANGED: Final = "config:changed"
AGENT_STATE: Final = "agent:state"
AGENT_LOG: Final = "agent:log"
CHANNELS_CHANGED: Final = "channels:changed"
MESSAGE_UPDATED: Final = "message:updated"
MESSAGE_DELTA: Final = "message:delta"
TURN_CHANGED: Final = "turn:changed"
PERMISSION_REQUESTED: Final = "permission:requested"
PERMISSION_RESOLVED: Final = "permission:resolved"
USAGE_CHANGED: Final = "usage:changed"
COMMANDS_CHANGED: Final = "commands:changed"
