"""What an agent receives: a command alone, or the message with the channel's messages it has not
seen yet (at most the last 20, each cut to 1500 characters), so agents see each other's work.
Nothing before the last "New session" divider is sent (issue 17)."""

from __future__ import annotations

from app.acp.prompts import PromptBlock, PromptText
from app.channels.attachments import prompt_file
from app.i18n import _
from app.models.conversation import Attachment, Message

CONTEXT_MESSAGES = 20
CONTEXT_CHARS = 1500


def message_text(message: Message) -> str:
    return "".join(p.text for p in message.parts if p.kind == "text").strip()


def _cut(text: str) -> str:
    return text if len(text) <= CONTEXT_CHARS else text[: CONTEXT_CHARS - 1] + "…"


def since_new_session(messages: list[Message]) -> list[Message]:
    """The messages after the last `new-session` divider among them (all when there is none)."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].code == "new-session":
            return messages[index + 1 :]
    return messages


def context_lines(unseen: list[Message], agent: str, own: bool = False) -> list[str]:
    """`own`: the agent's own answers too (a fork's new session has not seen them)."""
    lines = []
    for message in since_new_session(unseen):
        text = message_text(message)
        if message.attachments:  # the files went to the agents it was for; their names here
            names = ", ".join(a.name for a in message.attachments)
            text = f"{text} [attached: {names}]".strip()
        if message.role == "system" or not text or (message.agent == agent and not own):
            continue
        author = "user" if message.role == "user" else f"@{message.agent}"
        if message.role == "agent" and message.agent == agent:
            author = "you"
        lines.append(f"[{author}] {_cut(text)}")
    return lines[-CONTEXT_MESSAGES:]


def build_prompt(
    text: str, unseen: list[Message], agent: str, channel_name: str, own: bool = False
) -> str:
    """`own`: a fork's new session, given the conversation so far (its own answers too)."""
    lines = context_lines(unseen, agent, own)
    if not lines:
        return text
    where = f"#{channel_name}" if channel_name else _("this conversation")
    header = _("Messages in {where} since your last answer:").format(where=where)
    if own:
        header = _("Earlier in {where}:").format(where=where)
    footer = _("The message for you:")
    return "\n".join([header, *lines, "", footer, text])


def prompt_blocks(text: str, attachments: list[Attachment]) -> list[PromptBlock]:
    """The prompt's text, then one block per attached file (sent as the agent can take it)."""
    return [PromptText(text), *(prompt_file(a) for a in attachments)]
