"""A failed answer says the agent's error once (issue 26): claude-agent-acp streams its error
as the answer's text, then fails the prompt with the same sentence; the text is left out, the
failure (Message.error) says it. The error's details (app/acp/errors.py error_details) are
kept on the failure, for its "details" fold, and noted in the agent's log."""

from __future__ import annotations

from collections.abc import Callable

from app.acp.errors import describe_error, error_details
from app.i18n import _
from app.models.conversation import Message


def failed(message: Message, err: BaseException, note: Callable[[str], None]) -> None:
    """`message` failed with `err`: its sentence, its details (also noted in the agent's log)."""
    message.error = describe_error(err)
    message.error_details = note_details(err, note)


def note_details(err: BaseException, note: Callable[[str], None]) -> str:
    """The error's details ("" if none), noted in the agent's log."""
    details = error_details(err)
    if details:
        note(_("the agent's error as it sent it: {details}").format(details=details))
    return details


def without_repeated_error(message: Message) -> bool:
    """Leaves out the answer's last text when it only says the error again (or ends with it);
    True if it did."""
    error = message.error.strip()
    if not error or not message.parts or message.parts[-1].kind != "text":
        return False
    last = message.parts[-1]
    text = last.text.rstrip()
    said = text.strip()
    if said and (said == error or said in error):
        message.parts.pop()
        return True
    if len(said) > len(error) and text.endswith(error):
        last.text = text[: -len(error)].rstrip()
        return True
    return False
