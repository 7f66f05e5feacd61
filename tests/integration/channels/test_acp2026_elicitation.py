"""Elicitation and `$/cancel_request` (issue 26) through the real app: an agent's form or web
address shown on its answer and in the inbox, answered accept / decline / cancel, cancelled by
Stop and by deleting the channel, withdrawn by the agent (-32800), capped when flooded; a prompt
Sidekicks gives up on named to the agent. The fake: tests/fakes/acp2026_elicit.py."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.channels import turns
from app.core.errors import UserError
from tests.integration.channels.conftest import Chat
from tests.waiting import wait_for

FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "acp2026_elicit.py")


@pytest.fixture
def go(tmp_path: Path) -> Path:
    folder = tmp_path / "go"
    folder.mkdir()
    return folder


@pytest.fixture
def chat(open_chat: Callable[..., Chat], tmp_path: Path, go: Path) -> Chat:
    log = tmp_path / "agent-logs" / "asker.jsonl"
    return open_chat(
        "  - name: asker\n"
        f"    command: {json.dumps([sys.executable, FAKE])}\n"
        f"    env: {{FAKE_LOG: {json.dumps(str(log))}, FAKE_GO: {json.dumps(str(go))}}}\n"
    )


def ask(chat: Chat, word: str) -> tuple[str, int, dict[str, Any]]:
    """Sends `word` to the agent; the room, the log's mark and the question it asks."""
    room = chat.channels.Direct("asker").id
    mark = chat.log.mark()
    chat.channels.Send(room, word)
    return room, mark, chat.log.wait("elicitation:requested", since=mark, timeout=20)


def answer_text(chat: Chat, room: str, since: int) -> str:
    answer = chat.finished(room, "asker", since=since)
    chat.idle(room, since=since)
    return "".join(p.get("text", "") for p in answer["parts"])


def test_a_form_shows_every_kind_of_field_and_is_checked_before_it_is_sent(chat: Chat) -> None:
    room, mark, asked = ask(chat, "form")

    assert asked["channel"] == room and asked["agent"] == "asker" and asked["mode"] == "form"
    assert asked["message"] == "Please fill <i>this</i> in"  # text: the page shows it as such
    assert asked["title"] == "Deployment <b>settings</b>"
    fields = {f["name"]: f for f in asked["fields"]}
    assert list(fields) == [
        "name", "email", "region", "size", "replicas", "ratio", "confirm", "features"
    ]  # fmt: skip  # "strange" (a kind nobody knows, optional) is left out
    assert (fields["name"]["kind"], fields["name"]["required"]) == ("string", True)
    assert (fields["name"]["default"], fields["name"]["minLength"]) == ("demo", 2)
    assert fields["email"]["format"] == "email"
    assert fields["email"]["description"] == "For the report"
    assert fields["region"]["kind"] == "enum" and fields["region"]["default"] == "eu"
    assert [(c["value"], c["title"]) for c in fields["size"]["choices"]] == [
        ("s", "Small"),
        ("l", "Large"),
    ]
    assert fields["replicas"]["kind"] == "integer"
    assert (fields["replicas"]["minimum"], fields["replicas"]["maximum"]) == (1, 5)
    assert fields["ratio"]["kind"] == "number"
    assert fields["confirm"]["kind"] == "boolean" and fields["confirm"]["default"] is False
    assert fields["features"]["kind"] == "multiselect" and fields["features"]["maxItems"] == 2
    assert [e.id for e in chat.sk.api.InboxService.Elicitations()] == [asked["id"]]

    for wrong, sentence in [
        ({"region": "eu", "replicas": 2}, "Name is required"),
        ({"name": "x", "region": "eu", "replicas": 2}, "Name needs at least 2 characters"),
        ({"name": "web", "region": "mars", "replicas": 2}, "region must be one of its choices"),
        ({"name": "web", "region": "eu", "replicas": 9}, "replicas must be at most 5"),
        ({"name": "web", "region": "eu", "replicas": 2.5}, "replicas must be a whole number"),
        ({"name": "web", "region": "eu", "replicas": 2, "features": ["a", "z"]}, "features"),
        ({"name": "web", "region": "eu", "replicas": 2, "confirm": "yes"}, "Confirm must be"),
        ({"name": "web", "region": "eu", "replicas": 2, "other": 1}, "no field other"),
    ]:
        with pytest.raises(UserError, match=sentence):
            chat.channels.AnswerElicitation(asked["id"], "accept", wrong)
    assert chat.sk.api.InboxService.Elicitations()  # still waiting after each refusal

    content = {"name": "web", "region": "us", "replicas": 3, "ratio": 0.5, "confirm": True,
               "features": ["a", "b"], "email": ""}  # fmt: skip
    chat.channels.AnswerElicitation(asked["id"], "accept", content)

    chat.log.wait("elicitation:resolved", lambda p: p["id"] == asked["id"], since=mark)
    sent = json.loads(answer_text(chat, room, mark).removeprefix("answer="))
    assert sent == {
        "action": "accept",
        "content": {"name": "web", "region": "us", "replicas": 3, "ratio": 0.5,
                    "confirm": True, "features": ["a", "b"]},
    }  # fmt: skip  # the empty optional email is left out
    assert chat.sk.api.InboxService.Elicitations() == []
    with pytest.raises(UserError, match="no pending question"):
        chat.channels.AnswerElicitation(asked["id"], "decline", None)


def test_declined_and_request_scoped(chat: Chat) -> None:
    room, mark, asked = ask(chat, "request-form")  # names the prompt's request, no session

    assert asked["channel"] == room and [f["name"] for f in asked["fields"]] == ["ok"]
    with pytest.raises(UserError, match="not an answer"):
        chat.channels.AnswerElicitation(asked["id"], "maybe", None)
    chat.channels.AnswerElicitation(asked["id"], "decline", None)

    assert json.loads(answer_text(chat, room, mark).removeprefix("answer=")) == {
        "action": "decline"
    }


def test_a_web_address_is_shown_and_accepted_on_the_persons_click(chat: Chat) -> None:
    room, mark, asked = ask(chat, "url")

    assert (asked["mode"], asked["url"]) == ("url", "https://example.com/login?x=1")
    assert asked["message"] == "Sign in to the service" and asked["fields"] == []
    chat.channels.AnswerElicitation(asked["id"], "accept", None)  # the page opened it

    assert json.loads(answer_text(chat, room, mark).removeprefix("answer=")) == {"action": "accept"}


def test_an_address_that_is_not_a_web_one_is_declined_unseen(chat: Chat) -> None:
    room = chat.channels.Direct("asker").id
    mark = chat.log.mark()
    chat.channels.Send(room, "url-file")

    assert json.loads(answer_text(chat, room, mark).removeprefix("answer=")) == {
        "action": "decline"
    }
    assert chat.log.named("elicitation:requested", since=mark) == []


def test_stop_answers_cancel_and_the_question_goes(chat: Chat) -> None:
    room, mark, asked = ask(chat, "form")

    chat.channels.Cancel(room)

    chat.log.wait("elicitation:resolved", lambda p: p["id"] == asked["id"], since=mark)
    assert '"action": "cancel"' in answer_text(chat, room, mark)
    assert chat.sk.api.InboxService.Elicitations() == []


def test_deleting_the_channel_resolves_its_question(chat: Chat) -> None:
    room, mark, asked = ask(chat, "form")

    chat.channels.Delete(room)

    chat.log.wait("elicitation:resolved", lambda p: p["id"] == asked["id"], since=mark)
    assert chat.sk.api.InboxService.Elicitations() == []


def test_the_agent_withdraws_its_question_and_hears_minus_32800(chat: Chat, go: Path) -> None:
    room, mark, asked = ask(chat, "withdraw")

    (go / "withdraw").touch()

    chat.log.wait("elicitation:resolved", lambda p: p["id"] == asked["id"], since=mark)
    withdrawn = json.loads(answer_text(chat, room, mark).removeprefix("withdrawn="))
    assert withdrawn["code"] == -32800
    assert chat.sk.api.InboxService.Elicitations() == []
    with pytest.raises(UserError, match="no pending question"):
        chat.channels.AnswerElicitation(asked["id"], "cancel", None)
    answers = [m for m in chat.received("asker") if "method" not in m and m.get("id") == 1001]
    assert [a.get("error", {}).get("code") for a in answers] == [-32800]  # once, nothing later


def test_the_agent_withdraws_a_permission_request(chat: Chat, go: Path) -> None:
    room = chat.channels.Direct("asker").id
    mark = chat.log.mark()
    chat.channels.Send(room, "withdraw-permission")
    asked = chat.log.wait("permission:requested", since=mark, timeout=20)

    (go / "withdraw-permission").touch()

    chat.log.wait("permission:resolved", lambda p: p["id"] == asked["id"], since=mark)
    withdrawn = json.loads(answer_text(chat, room, mark).removeprefix("withdrawn="))
    assert withdrawn["code"] == -32800
    assert chat.sk.api.InboxService.Permissions() == []


def test_elicitation_complete_takes_the_address_away(chat: Chat, go: Path) -> None:
    room, mark, asked = ask(chat, "complete")

    (go / "complete").touch()

    chat.log.wait("elicitation:resolved", lambda p: p["id"] == asked["id"], since=mark)
    assert json.loads(answer_text(chat, room, mark).removeprefix("answer=")) == {"action": "cancel"}


def test_a_flood_of_questions_is_capped(chat: Chat) -> None:
    room = chat.channels.Direct("asker").id
    mark = chat.log.mark()
    chat.channels.Send(room, "flood")

    wait_for(lambda: len(chat.log.named("elicitation:requested", since=mark)) == 64, 20, "64")
    wait_for(
        lambda: (
            sum(1 for m in chat.received("asker") if m.get("result", {}).get("action") == "cancel")
            == 6
        ),
        10,
        "the 6 past the cap cancelled",
    )
    assert len(chat.sk.api.InboxService.Elicitations()) == 64
    chat.channels.Cancel(room)
    assert "answered=0 cancelled=70" in answer_text(chat, room, mark)


def test_an_abandoned_prompt_is_named_in_a_cancel_request(
    chat: Chat, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns, "CANCEL_GRACE", 0.2)  # how long an ignored session/cancel waits
    room = chat.channels.Direct("asker").id
    mark = chat.log.mark()
    chat.channels.Send(room, "hang")
    prompt = wait_for(
        lambda: next((m for m in chat.received("asker") if m.get("method") == "session/prompt"), 0),
        20,
        "the prompt",
    )

    chat.channels.Cancel(room)

    chat.idle(room, since=mark)
    cancels = wait_for(
        lambda: [m for m in chat.received("asker") if m.get("method") == "$/cancel_request"],
        10,
        "a $/cancel_request",
    )
    assert [c["params"] for c in cancels] == [{"requestId": prompt["id"]}]


def test_both_modes_are_advertised(chat: Chat) -> None:
    ask_room = chat.channels.Direct("asker").id
    chat.channels.Prepare(ask_room)
    [init] = [m for m in chat.received("asker") if m.get("method") == "initialize"]
    assert init["params"]["clientCapabilities"]["elicitation"] == {"form": {}, "url": {}}
