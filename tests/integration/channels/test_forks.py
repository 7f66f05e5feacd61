"""Fork from here (issue 28, ForkService.Fork) with real agent processes
(tests/fakes/fork_agent.py): the history copied up to the message, the members' sessions forked
with `session/fork` where the agent offers it and its session had seen nothing after the
message, else a new session given the copied history; the fork outlives a restart and its
source."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.core.errors import UserError
from tests.integration.channels.attachments_setup import png_base64
from tests.integration.channels.conftest import FAST, Chat
from tests.waiting import EventLog

FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "fork_agent.py")
AGENTS = {"forker": ["fork"], "plain": [], "refuser": ["fork-fails"]}


@pytest.fixture
def open_app(tmp_path: Path) -> Iterator[Callable[[], Chat]]:
    opened: list[Sidekicks] = []
    logs = tmp_path / "logs"
    logs.mkdir()
    config = tmp_path / "forks.yaml"
    lines = ["agents:"]
    for name, flags in AGENTS.items():
        env = {"FAKE_LOG": str(logs / f"{name}.jsonl"), "FAKE_STATE": str(logs / f"{name}.json")}
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, FAKE, *flags])}",
            f"    env: {json.dumps(env)}",
        ]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")

    def open_() -> Chat:
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return Chat(sk, log, logs)

    yield open_
    for sk in opened:
        sk.close()


@pytest.fixture
def app(open_app: Callable[[], Chat]) -> Chat:
    return open_app()


def ask(chat: Chat, channel: str, agent: str, text: str) -> dict[str, Any]:
    """Sends `text` and waits for `agent`'s finished answer."""
    mark = chat.log.mark()
    chat.channels.Send(channel, text)
    answer: dict[str, Any] = chat.finished(channel, agent, since=mark)
    chat.idle(channel, since=mark)
    return answer


def text(message: dict[str, Any]) -> str:
    return "".join(p.get("text", "") for p in message["parts"] if p["kind"] == "text")


def said(chat: Chat, channel: str) -> list[tuple[str, str]]:
    """Who said what in the channel (its system lines left out)."""
    messages = chat.channels.Conversation(channel)["messages"]
    return [(m["role"], text(m)) for m in messages if m["role"] != "system"]


def fork(chat: Chat, channel: str, message: str) -> Any:
    return chat.sk.api.ForkService.Fork(channel, message)


def requests(chat: Chat, agent: str, method: str) -> list[dict[str, Any]]:
    return [m for m in chat.received(agent) if m.get("method") == method]


def test_a_conversation_forked_at_its_end_forks_the_agents_session(app: Chat) -> None:
    source = app.channels.Direct("forker")
    ask(app, source.id, "forker", "one")
    last = ask(app, source.id, "forker", "two")
    forked = fork(app, source.id, last["id"])
    assert forked.direct == "forker" and forked.members == ["forker"]
    assert forked.id != source.id and forked.name == ""
    assert forked.title == "one (fork)"  # the conversation's title: its first message
    assert forked.created_at > app.channels.Conversation(source.id)["channel"]["createdAt"]
    assert forked.forked_from is not None
    assert (forked.forked_from.channel, forked.forked_from.message) == (source.id, last["id"])
    assert said(app, forked.id) == said(app, source.id)
    copied = app.channels.Conversation(forked.id)["messages"]
    assert {m["channel"] for m in copied} == {forked.id}
    assert not {m["id"] for m in copied} & {
        m["id"] for m in app.channels.Conversation(source.id)["messages"]
    }
    assert forked.id in [c.id for c in app.channels.List()]
    found = app.sk.api.SearchService.Search("two", forked.id)  # indexed with the copy
    assert [h.message_id for h in found.results] == [m["id"] for m in copied[-2:]][::-1]

    answer = ask(app, forked.id, "forker", "three")
    assert [c.title for c in app.channels.List() if c.id == forked.id] == ["one (fork)"]
    (asked,) = requests(app, "forker", "session/fork")
    assert asked["params"]["sessionId"] == "new-1"  # the source's session
    assert text(answer) == "[fork-1] heard three; remembers one | two"
    assert app.prompts("forker")[-1] == "three"  # it has seen all of it: no context sent
    # The source goes on in its own session, which never heard the fork's message.
    answer = ask(app, source.id, "forker", "four")
    assert text(answer) == "[new-1] heard four; remembers one | two"


def test_a_fork_at_a_middle_message_holds_the_history_up_to_it_and_replays_it(
    app: Chat,
) -> None:
    source = app.channels.Direct("forker")
    ask(app, source.id, "forker", "one")
    middle = ask(app, source.id, "forker", "two")
    ask(app, source.id, "forker", "three")
    forked = fork(app, source.id, middle["id"])
    assert said(app, forked.id) == said(app, source.id)[:4]

    answer = ask(app, forked.id, "forker", "again")
    # Its session went on past the message: not forked, a new session given the history.
    assert requests(app, "forker", "session/fork") == []
    assert text(answer) == "[new-2] heard again; remembers nothing"
    prompt = app.prompts("forker")[-1].splitlines()
    assert prompt == [
        "Earlier in this conversation:",
        "[user] one",
        "[you] [new-1] heard one; remembers nothing",
        "[user] two",
        "[you] [new-1] heard two; remembers one",
        "",
        "The message for you:",
        "again",
    ]
    # The next prompt is as any other: only what it has not seen.
    ask(app, forked.id, "forker", "more")
    assert app.prompts("forker")[-1] == "more"


@pytest.mark.parametrize("agent", ["plain", "refuser"])
def test_without_session_fork_the_fork_gives_a_new_session_the_history(
    app: Chat, agent: str
) -> None:
    source = app.channels.Direct(agent)
    ask(app, source.id, agent, "one")
    forked = fork(app, source.id, ask(app, source.id, agent, "two")["id"])
    answer = ask(app, forked.id, agent, "three")
    forks = requests(app, agent, "session/fork")
    if agent == "plain":  # it does not advertise session/fork: never asked
        assert forks == []
    else:  # it advertises it, and fails: the fork starts anew all the same
        assert [f["params"]["sessionId"] for f in forks] == ["new-1"]
    assert text(answer) == "[new-2] heard three; remembers nothing"
    prompt = app.prompts(agent)[-1]
    assert prompt.startswith("Earlier in this conversation:\n[user] one\n")
    assert "[you] [new-1] heard two; remembers one\n" in prompt
    assert prompt.endswith("\nThe message for you:\nthree")


def test_a_channel_forks_with_its_members_name_and_description(app: Chat) -> None:
    source = app.channels.Create("team", "the crew", ["forker", "plain"])
    ask(app, source.id, "forker", "@forker hello")
    last = ask(app, source.id, "plain", "@plain hi")
    forked = fork(app, source.id, last["id"])
    assert (forked.name, forked.description, forked.direct) == ("team (fork)", "the crew", "")
    assert forked.members == ["forker", "plain"]
    assert forked.forked_from is not None and forked.forked_from.name == "team"
    kinds = [(m["role"], m["code"]) for m in app.channels.Conversation(forked.id)["messages"]]
    assert kinds[:2] == [("system", "agent-joined"), ("system", "agent-joined")]
    assert fork(app, source.id, last["id"]).name == "team (fork) (2)"
    # Both had seen nothing after the message: forker's session is forked, plain starts anew.
    answer = ask(app, forked.id, "forker", "@forker and now")
    assert text(answer) == "[fork-1] heard @forker and now; remembers @forker hello"
    answer = ask(app, forked.id, "plain", "@plain and you")
    assert text(answer).startswith("[new-2] heard @plain and you;")
    assert "[@forker] [new-1] heard @forker hello" in app.prompts("plain")[-1]


def test_the_fork_outlives_a_restart_and_its_source(open_app: Callable[[], Chat]) -> None:
    app = open_app()
    source = app.channels.Direct("forker")
    ask(app, source.id, "forker", "one")
    forked = fork(app, source.id, ask(app, source.id, "forker", "two")["id"])
    before = said(app, forked.id)
    app.sk.close()

    app = open_app()
    (kept,) = [c for c in app.channels.List() if c.id == forked.id]
    assert kept.forked_from == forked.forked_from
    assert said(app, forked.id) == before
    app.channels.Delete(source.id)
    assert said(app, forked.id) == before
    answer = ask(app, forked.id, "forker", "three")  # its session still forks from the kept one
    assert text(answer) == "[fork-1] heard three; remembers one | two"


def test_only_a_kept_message_forks(app: Chat) -> None:
    source = app.channels.Direct("forker")
    with pytest.raises(UserError, match="only a finished message can be forked"):
        fork(app, source.id, "01NOTAMESSAGE0000000000000")
    with pytest.raises(UserError):
        fork(app, "01NOTACHANNEL0000000000000", "01NOTAMESSAGE0000000000000")
    assert [c.id for c in app.channels.List()] == [source.id]


def test_a_forks_pasted_images_are_its_own(app: Chat) -> None:
    source = app.channels.Direct("plain")
    image = app.sk.api.AttachmentService.AttachImage(
        source.id, "shot.png", "image/png", png_base64()
    )
    mark = app.log.mark()
    sent = app.channels.Send(source.id, "look", [image.id])
    app.finished(source.id, "plain", since=mark)
    app.idle(source.id, since=mark)
    forked = fork(app, source.id, sent)
    (copied,) = [m for m in app.channels.Conversation(forked.id)["messages"] if m["attachments"]]
    (attached,) = copied["attachments"]
    assert Path(attached["path"]).parent.name == forked.id
    assert Path(attached["path"]).read_bytes() == Path(image.path).read_bytes()
    app.channels.Delete(source.id)  # its images go with it; the fork's stay
    assert not Path(image.path).exists() and Path(attached["path"]).exists()
