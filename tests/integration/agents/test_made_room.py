"""Issue 29: an agent stopped to make room for another says so: `agent:evicted` for the page's
toast and a `made-room` line kept in its newest direct conversation (two real demo agents, a
limit of one, real LMDB, and a restart)."""

from __future__ import annotations

from pathlib import Path

from app import Sidekicks
from tests.integration.channels.conftest import FAST, Chat
from tests.waiting import EventLog

CONFIG = """limits:
  maxRunningAgents: 1
agents:
  - name: demo
    builtin: demo
  - name: other
    title: Other demo
    builtin: demo
"""


def open_app(config: Path, tmp_path: Path) -> Chat:
    sk = Sidekicks(config=config, tuning=FAST).start()
    log = EventLog()
    sk.events.subscribe(log)
    return Chat(sk, log, tmp_path)


def made_room_lines(chat: Chat, channel: str) -> list[dict[str, object]]:
    messages = chat.channels.Conversation(channel)["messages"]
    return [m for m in messages if m.get("code") == "made-room"]


def test_an_agent_stopped_to_make_room_says_so_in_an_event_and_in_its_conversation(
    tmp_path: Path,
) -> None:
    config = tmp_path / "agents.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    chat = open_app(config, tmp_path)
    try:
        demo = chat.channels.Direct("demo")
        mark = chat.log.mark()
        chat.channels.Send(demo.id, "/echo Hi")
        chat.finished(demo.id, "demo", since=mark)
        chat.idle(demo.id, since=mark)
        assert made_room_lines(chat, demo.id) == []

        other = chat.channels.Direct("other")
        mark = chat.log.mark()
        chat.channels.Send(other.id, "/echo Hi")
        evicted = chat.log.wait("agent:evicted", lambda p: True, since=mark)
        assert evicted == {"agent": "demo", "forAgent": "other", "limit": 1}
        line = chat.system(demo.id, "made-room", since=mark)
        assert (line["agent"], line["madeRoom"]) == ("demo", {"forAgent": "other", "limit": 1})
        chat.finished(other.id, "other", since=mark)
        states = {a.name: a.state for a in chat.sk.api.AgentService.List()}
        assert states["demo"] == "stopped"
        # The line is in demo's conversation only, and it is not said twice.
        assert made_room_lines(chat, other.id) == []
        assert len(chat.log.named("agent:evicted")) == 1
    finally:
        chat.sk.close()

    again = open_app(config, tmp_path)  # kept in history: still there after a restart
    try:
        kept = made_room_lines(again, demo.id)
        assert [(m["agent"], m["madeRoom"]) for m in kept] == [
            ("demo", {"forAgent": "other", "limit": 1})
        ]
    finally:
        again.sk.close()


def test_a_stop_by_the_person_or_for_idleness_is_not_a_made_room_stop(tmp_path: Path) -> None:
    config = tmp_path / "agents.yaml"
    config.write_text(CONFIG.replace("maxRunningAgents: 1", "maxRunningAgents: 2"), "utf-8")
    chat = open_app(config, tmp_path)
    try:
        chat.sk.api.AgentService.Start("demo")
        chat.sk.api.AgentService.Start("other")  # room for both: nobody is stopped
        chat.sk.api.AgentService.Stop("demo")
        assert chat.log.named("agent:evicted") == []
    finally:
        chat.sk.close()
