"""The words an export says about a message (author, time, system lines, stop reasons), shared
by the Markdown and HTML documents. Times are UTC, written `2026-12-01 06:31:49 UTC`."""

from __future__ import annotations

from datetime import UTC, datetime

from app.i18n import _
from app.models.conversation import Channel, Message


def author(message: Message) -> str:
    if message.role == "user":
        return _("You")
    if message.role == "agent":
        return f"@{message.agent}"
    return _("Sidekicks")


def when(created_at: str) -> str:
    """A stored ISO time as a readable UTC time (as stored when it cannot be read)."""
    try:
        moment = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return created_at
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def title(channel: Channel) -> str:
    if channel.direct:
        return _("Conversation with @{agent}").format(agent=channel.direct)
    return f"#{channel.name}"


def system_line(message: Message) -> str:
    """What a system message says, in a sentence."""
    agent = message.agent
    if message.code == "agent-joined":
        return _("@{agent} joined the channel").format(agent=agent)
    if message.code == "agent-left":
        return _("@{agent} left the channel").format(agent=agent)
    if message.code == "no-recipient":
        return _("No agent was addressed: mention one with @name")
    if message.code == "new-session":
        return _("New session — earlier messages are not sent to the agents")
    if message.code == "agent-unavailable":
        reason = message.error or _("unknown reason")
        return _("@{agent} could not answer: {reason}").format(agent=agent, reason=reason)
    if message.code == "made-room" and message.made_room is not None:
        room = message.made_room
        if room.limit == 1:
            line = _("@{agent} was stopped to make room for @{other} (one agent runs at a time)")
        else:
            line = _(
                "@{agent} was stopped to make room for @{other} "
                "(at most {limit} agents run at once)"
            )
        return line.format(agent=agent, other=room.for_agent, limit=room.limit)
    if message.code == "recipients-dropped" and message.dropped:
        names = ", ".join(f"@{name}" for name in message.dropped)
        if len(message.dropped) == 1:
            return _("Stopped: {agent} will not answer this message").format(agent=names)
        return _("Stopped: {agents} will not answer this message").format(agents=names)
    return message.error or _("System message")


def stop_note(message: Message) -> str:
    """Why an answer ended, when it did not simply end ("" otherwise)."""
    reasons = {
        "cancelled": _("Stopped before the end."),
        "max_tokens": _("Cut short: the agent reached its token limit."),
        "max_turn_requests": _("Cut short: the agent reached its limit of requests."),
        "refusal": _("The agent refused to answer."),
    }
    return reasons.get(message.stop_reason or "", "")


def exported_on() -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return _("Exported from Sidekicks on {time}.").format(time=now)
