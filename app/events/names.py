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

# Extensions beyond the SPEC (listed in docs/services.md).
SESSION_CHANGED: Final = "session:changed"  # a member's modes/options changed (issue 14)
SIGN_IN_TERMINAL_OUTPUT: Final = "signin:output"  # a sign-in terminal printed something
SIGN_IN_TERMINAL_EXITED: Final = "signin:exited"  # a sign-in terminal's command ended
SIGN_IN_PROMPT: Final = "signin:prompt"  # a sign-in shows a web address or asks for a code

TERMINAL_OUTPUT: Final = "terminal:output"  # an agent's command printed something (issue 15)
TERMINAL_EXITED: Final = "terminal:exited"  # an agent's command ended
CHANGES_CHANGED: Final = "changes:changed"  # file changes recorded or reverted in a channel
CHECKPOINTS_CHANGED: Final = "checkpoints:changed"  # an answer's checkpoint taken, or some cleared

ATTENTION_CHANGED: Final = "attention:changed"  # unread answers or pending permissions (issue 17)
NOTIFICATION_OPENED: Final = "notification:opened"  # the person clicked a notification
PERMISSION_RULES_CHANGED: Final = "permission-rules:changed"  # "always allow" rules changed
ELICITATION_REQUESTED: Final = "elicitation:requested"  # an agent asks the person (issue 26)
ELICITATION_RESOLVED: Final = "elicitation:resolved"  # its question answered or gone
INSTALL_PROGRESS: Final = "install:progress"  # a gallery install, an npx/uvx first start (27)
AGENT_EVICTED: Final = "agent:evicted"  # an idle agent stopped to make room for another (29)

EXTENSION_EVENTS: Final = (
    SESSION_CHANGED,
    SIGN_IN_TERMINAL_OUTPUT,
    SIGN_IN_TERMINAL_EXITED,
    SIGN_IN_PROMPT,
    TERMINAL_OUTPUT,
    TERMINAL_EXITED,
    CHANGES_CHANGED,
    CHECKPOINTS_CHANGED,
    ATTENTION_CHANGED,
    NOTIFICATION_OPENED,
    PERMISSION_RULES_CHANGED,
    ELICITATION_REQUESTED,
    ELICITATION_RESOLVED,
    INSTALL_PROGRESS,
    AGENT_EVICTED,
)
