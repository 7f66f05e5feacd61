"""Who answers a message (SPEC §4 "Who answers a message"), as pure functions.

- `/agent:command args`: that agent, which receives `/command args`;
- `@name` mentions of configured agents: those, in mention order (non-members join first);
- no mention: the last agent that answered; with a single member, that member;
- no mention, nobody answered yet, several members: nobody (system message `no-recipient`);
- anything in a direct conversation: its agent; mentions there are plain text.

Issue 29: `@here` and `@all` (any case) mention every member, in the channel's member order, at
the place they stand among the other mentions (a member already mentioned keeps its place). They
are not agent names (the configuration refuses them), and they are plain text in a direct
conversation and in an agent's answer (hand-offs read named mentions only).

A message that starts with `/` (possibly after mentions) is a command: it is sent alone, without
the channel's context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.models.mentions import EVERY_MEMBER  # @here, @all: every member, in order

# Agent names are ASCII, in any case: with re.IGNORECASE, [a-z] would also match İ, ı, ſ and the
# Kelvin sign (tests/corpus/routing.json, shared with the UI's port, routing.ts).
MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9][A-Za-z0-9_-]*)")
AGENT_COMMAND = re.compile(r"^/([A-Za-z0-9][A-Za-z0-9_-]*):(\S+)(.*)$", re.DOTALL)
LEADING_MENTIONS = re.compile(r"^(\s*@[A-Za-z0-9][A-Za-z0-9_-]*[,:]?)+\s*")


@dataclass
class Route:
    recipients: list[str] = field(default_factory=list)  # in answering order
    joining: list[str] = field(default_factory=list)  # mentioned agents not yet members
    command: bool = False  # sent alone, without the channel's context
    text: str = ""  # what the recipients receive
    no_recipient: bool = False


def _agent_named(name: str, configured: list[str]) -> str | None:
    lowered = name.lower()
    return next((a for a in configured if a.lower() == lowered), None)


def mentions(text: str, configured: list[str]) -> list[str]:
    """Configured agents mentioned with @name, in order of first mention, once each."""
    found: list[str] = []
    for match in MENTION.finditer(text):
        agent = _agent_named(match.group(1), configured)
        if agent is not None and agent not in found:
            found.append(agent)
    return found


def addressed(text: str, configured: list[str], members: list[str]) -> list[str]:
    """The agents a person's message in a channel mentions, in order, once each: named agents
    as `mentions` finds them, and `@here`/`@all` as every member in member order."""
    found: list[str] = []
    for match in MENTION.finditer(text):
        name = match.group(1)
        if name.lower() in EVERY_MEMBER:
            found.extend(m for m in members if m not in found)
        elif (agent := _agent_named(name, configured)) is not None and agent not in found:
            found.append(agent)
    return found


def broadcast(text: str) -> bool:
    """True when the text mentions `@here` or `@all`."""
    return any(m.group(1).lower() in EVERY_MEMBER for m in MENTION.finditer(text))


def route(
    text: str,
    *,
    configured: list[str],
    members: list[str],
    direct: str = "",
    last_responder: str = "",
) -> Route:
    stripped = text.strip()
    if direct:
        command = stripped.startswith("/")
        explicit = AGENT_COMMAND.match(stripped)
        if explicit and _agent_named(explicit.group(1), configured) == direct:
            stripped = f"/{explicit.group(2)}{explicit.group(3)}"  # /demo:help → /help
        return Route(recipients=[direct], command=command, text=stripped)

    explicit = AGENT_COMMAND.match(stripped)
    if explicit:
        agent = _agent_named(explicit.group(1), configured)
        if agent is not None:
            joining = [] if agent in members else [agent]
            return Route(
                recipients=[agent],
                joining=joining,
                command=True,
                text=f"/{explicit.group(2)}{explicit.group(3)}",
            )

    mentioned = addressed(stripped, configured, members)
    leading = mentioned or broadcast(stripped)  # @all in a channel without members: a mention
    after_mentions = LEADING_MENTIONS.sub("", stripped, count=1) if leading else stripped
    command = after_mentions.startswith("/")
    body = after_mentions if command else stripped
    if mentioned:
        joining = [a for a in mentioned if a not in members]
        return Route(recipients=mentioned, joining=joining, command=command, text=body)
    if last_responder and last_responder in members:
        return Route(recipients=[last_responder], command=command, text=body)
    if len(members) == 1:
        return Route(recipients=[members[0]], command=command, text=body)
    return Route(no_recipient=True, text=body, command=command)


def only(decided: Route, agent: str, members: list[str]) -> Route:
    """A message resent for one agent (its answer retried): what it says is read as `route`
    read it (a command stays a command, `/agent:command` loses its prefix), but only `agent`
    answers, whoever else it mentions and whoever answered last."""
    joining = [] if agent in members else [agent]
    return Route(recipients=[agent], joining=joining, command=decided.command, text=decided.text)
