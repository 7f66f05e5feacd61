"""The "always allow" rules (issue 17): given by an allow_always answer, applied to the same
agent and tool kind in any channel (never to another agent or kind), revoked, kept in a real
LMDB history across a restart; and the one list of every channel's pending requests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from app.acp.updates import PermissionAsked, PermissionChoice, ToolChange
from app.channels.answer import Answer
from app.channels.commands import CommandCatalog
from app.channels.permission_rules import RULES_KEY, PermissionRules, option_a_rule_gives
from app.channels.permissions import PermissionBroker
from app.channels.publishing import Publisher, new_message, now_iso
from app.channels.registry import ChannelRegistry
from app.channels.session_settings import Preset, SessionSettings
from app.channels.state import ActiveTurn, ChannelState
from app.channels.streaming import Streaming
from app.core.errors import UserError
from app.core.ids import new_id
from app.events.bus import EventBus
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel, PermissionOption, ToolKind
from tests.waiting import EventLog

ALWAYS = PermissionChoice("always", "Always allow", "allow_always")
ONCE = PermissionChoice("once", "Allow", "allow_once")
REJECT = PermissionChoice("reject", "Reject", "reject_once")


class Channels:
    """The conversation parts that handle permission requests, on a real LMDB history, with
    each channel's agent answering (a turn in progress) as a real turn would have it."""

    def __init__(self, folder: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.bus = EventBus()
        self.events = EventLog()
        self.bus.subscribe(self.events)
        self.registry = ChannelRegistry()
        self.registry.attach(LmdbHistory(folder))
        self.broker = PermissionBroker()
        publisher = Publisher(self.bus, self.registry, self.broker)
        self.rules = PermissionRules(self.bus, lambda: self.registry.history, now_iso)
        settings = SessionSettings(self.registry, publisher, lambda agent: Preset())
        commands = CommandCatalog(self.bus, self.registry)
        self.streaming = Streaming(
            self.registry, publisher, self.broker, commands, settings, self.rules
        )

    def channel(self, agent: str) -> ChannelState:
        """A new channel where `agent` is answering."""
        channel = Channel(id=new_id(), name=f"c{len(self.registry.states)}", members=[agent])
        state = ChannelState(StoredChannel(channel=channel))
        self.registry.add(state)
        answer = Answer(new_message(channel.id, "agent", agent=agent, done=False))
        state.turn = ActiveTurn(agent, answer, conn=cast(Any, None), session_id="s")
        return state

    def ask(
        self,
        state: ChannelState,
        kind: ToolKind = "edit",
        options: tuple[PermissionChoice, ...] = (ONCE, ALWAYS, REJECT),
    ) -> asyncio.Future[str | None]:
        assert state.turn is not None
        reply: asyncio.Future[str | None] = self.loop.create_future()
        tool = ToolChange(tool_call_id=new_id(), title=f"{kind} a file", kind=kind)
        asked = PermissionAsked(tool=tool, options=options, reply=reply)
        self.streaming.on_event(state.id, state.turn.agent, asked, replay=False)
        return reply

    def answer(self, option_id: str) -> None:
        """The person answers the oldest pending request, as AnswerPermission does."""
        request, kind = self.broker.answer(self.broker.all()[0].id, option_id)
        if kind == "allow_always":
            self.rules.given(request)
        self.settle()

    def settle(self) -> None:
        self.loop.run_until_complete(asyncio.sleep(0))  # the futures' callbacks run

    def close(self) -> None:
        self.registry.detach()
        self.loop.close()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Channels]:
    channels = Channels(tmp_path / "history")
    yield channels
    channels.close()


def test_an_always_allow_answer_keeps_a_rule_for_that_agent_and_tool_kind(app: Channels) -> None:
    first = app.channel("alpha")
    reply = app.ask(first, "edit")
    app.answer("always")
    assert reply.result() == "always"
    [rule] = app.rules.all()
    assert (rule.agent, rule.kind, rule.channel, rule.example) == (
        "alpha",
        "edit",
        first.id,
        "edit a file",
    )
    changed = app.events.named("permission-rules:changed")
    assert [r["id"] for r in changed[-1]["rules"]] == [rule.id]


def test_an_allow_once_answer_keeps_no_rule(app: Channels) -> None:
    app.ask(app.channel("alpha"))
    app.answer("once")
    assert app.rules.all() == []


def test_the_rule_answers_the_same_agent_and_kind_in_another_channel_without_asking(
    app: Channels,
) -> None:
    app.ask(app.channel("alpha"), "edit")
    app.answer("always")
    other = app.channel("alpha")
    reply = app.ask(other, "edit")
    assert reply.done() and reply.result() == "always"
    assert app.broker.all() == []
    assert not app.events.named("permission:requested")[1:]  # only the first one was asked
    assert other.turn is not None
    [part] = other.turn.answer.message.parts
    assert part.tool is not None and part.tool.allowed_by_rule == app.rules.all()[0].id


def test_a_rule_answers_with_allow_once_when_the_request_offers_no_always(app: Channels) -> None:
    app.ask(app.channel("alpha"), "execute")
    app.answer("always")
    reply = app.ask(app.channel("alpha"), "execute", options=(ONCE, REJECT))
    assert reply.result() == "once"


def test_a_rule_never_answers_a_request_that_offers_no_way_to_allow(app: Channels) -> None:
    app.ask(app.channel("alpha"), "edit")
    app.answer("always")
    reply = app.ask(app.channel("alpha"), "edit", options=(REJECT,))
    assert not reply.done()
    assert len(app.broker.all()) == 1


def test_a_rule_does_not_answer_another_agent_nor_another_kind(app: Channels) -> None:
    app.ask(app.channel("alpha"), "edit")
    app.answer("always")
    other_agent = app.ask(app.channel("beta"), "edit")
    other_kind = app.ask(app.channel("alpha"), "delete")
    assert not other_agent.done() and not other_kind.done()
    assert [(r.agent, r.tool_call.kind) for r in app.broker.all()] == [
        ("beta", "edit"),
        ("alpha", "delete"),
    ]


def test_a_revoked_rule_no_longer_answers(app: Channels) -> None:
    app.ask(app.channel("alpha"), "edit")
    app.answer("always")
    [rule] = app.rules.all()
    assert app.rules.revoke(rule.id) == []
    assert app.events.named("permission-rules:changed")[-1]["rules"] == []
    assert not app.ask(app.channel("alpha"), "edit").done()
    with pytest.raises(UserError, match="no permission rule"):
        app.rules.revoke(rule.id)


def test_a_second_always_for_the_same_agent_and_kind_keeps_the_first_rule(
    app: Channels,
) -> None:
    app.ask(app.channel("alpha"), "edit")
    request = app.broker.all()[0]
    first = app.rules.given(request)
    assert app.rules.given(request) == first
    assert app.rules.all() == [first]


def test_rules_survive_a_restart_in_the_lmdb_history(tmp_path: Path) -> None:
    before = Channels(tmp_path / "history")
    before.ask(before.channel("alpha"), "execute")
    before.answer("always")
    kept = before.rules.all()
    before.close()

    after = Channels(tmp_path / "history")
    try:
        assert after.rules.all() == kept
        assert after.ask(after.channel("alpha"), "execute").result() == "always"
    finally:
        after.close()


def test_damaged_rules_are_ignored_and_the_person_is_asked(app: Channels) -> None:
    app.registry.history.put_value(RULES_KEY, b"{not json")
    assert app.rules.all() == []
    assert not app.ask(app.channel("alpha")).done()


def test_every_channels_pending_requests_are_listed_oldest_first(app: Channels) -> None:
    first, second = app.channel("alpha"), app.channel("beta")
    app.ask(first, "edit")
    app.ask(second, "execute")
    app.ask(first, "read")
    listed = app.broker.all()
    assert [(r.channel, r.tool_call.kind) for r in listed] == [
        (first.id, "edit"),
        (second.id, "execute"),
        (first.id, "read"),
    ]
    app.answer("once")  # the oldest
    assert [r.tool_call.kind for r in app.broker.all()] == ["execute", "read"]


def test_the_option_a_rule_gives_prefers_always_then_once_and_never_a_rejection() -> None:
    def option(kind: Any) -> PermissionOption:
        return PermissionOption(option_id=kind, name=kind, kind=kind)

    once, always, reject = option("allow_once"), option("allow_always"), option("reject_once")
    assert option_a_rule_gives([reject, once, always]) == always
    assert option_a_rule_gives([reject, once]) == once
    assert option_a_rule_gives([reject, option("reject_always")]) is None
