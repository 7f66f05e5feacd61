"""Errors in words (issue 26): a failed answer says the agent's sentence once, without the codes
and kinds of the error's `data`, a JSON error body as its message, Claude's error not twice; what
was left out is on the failure (`errorDetails`, the window's "details" fold) and in the agent's
log. The fake: tests/fakes/acp2026_models.py (`fail SHAPE`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.integration.channels.conftest import Chat
from tests.integration.channels.test_acp2026_models import entry


@pytest.fixture
def chat(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    logs = tmp_path / "agent-logs"
    return open_chat(entry(logs, "gemini", "gemini") + entry(logs, "refuses", "refuses"))


def failed_answer(chat: Chat, shape: str) -> tuple[dict[str, Any], str]:
    """The failed answer to `fail SHAPE`, as kept, and its channel."""
    room = chat.channels.Direct("gemini").id
    mark = chat.log.mark()
    chat.channels.Send(room, f"fail {shape}")
    answer = chat.finished(room, "gemini", since=mark)
    chat.idle(room, since=mark)
    kept = next(m for m in chat.channels.Conversation(room)["messages"] if m["id"] == answer["id"])
    assert kept == answer
    return answer, room


def logs(chat: Chat, agent: str = "gemini") -> list[str]:
    return list(chat.sk.api.AgentService.Logs(agent))


def test_an_error_kind_from_data_is_left_out_and_kept_in_the_details_and_the_log(
    chat: Chat,
) -> None:
    answer, _room = failed_answer(chat, "kinds")

    assert answer["error"] == "The model stopped answering"
    assert answer["errorDetails"].startswith("-32603 Internal error {")
    assert '"errorKind":"other"' in answer["errorDetails"]
    noted = [line for line in logs(chat) if "the agent's error as it sent it" in line]
    assert noted == [f"the agent's error as it sent it: {answer['errorDetails']}"]


def test_a_json_error_body_is_said_as_its_message(chat: Chat) -> None:
    answer, _room = failed_answer(chat, "json")

    assert answer["error"] == (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login "
        "cookie or other valid authentication credential."
    )
    assert '"status": "UNAUTHENTICATED"' in answer["errorDetails"]


def test_a_code_of_the_agents_own_message_stays_its_kind_goes(chat: Chat) -> None:
    answer, _room = failed_answer(chat, "reset")

    assert answer["error"] == "fetch failed (ECONNRESET)"
    assert answer["errorDetails"] == '-32603 fetch failed (ECONNRESET) {"kind":"unknown"}'


def test_opencodes_session_error_is_its_message(chat: Chat) -> None:
    answer, _room = failed_answer(chat, "session")

    assert answer["error"] == "Rate limit reached"


def test_claudes_error_is_said_once_not_as_text_and_as_the_failure(chat: Chat) -> None:
    answer, _room = failed_answer(chat, "claude")

    assert answer["error"] == "API Error: 529 Overloaded"
    assert [p for p in answer["parts"] if p["kind"] == "text"] == []
    assert answer["errorDetails"] == "-32603 Internal error: API Error: 529 Overloaded"


def test_an_answer_that_works_has_no_error_nor_details(chat: Chat) -> None:
    room = chat.channels.Direct("gemini").id
    mark = chat.log.mark()
    chat.channels.Send(room, "hello")
    answer = chat.finished(room, "gemini", since=mark)

    assert (answer["error"], answer["errorDetails"]) == ("", "")
    assert "model=auto-gemini-2.5" in answer["parts"][0]["text"]


def test_a_session_the_agent_refuses_to_open_says_the_json_bodys_message(chat: Chat) -> None:
    room = chat.channels.Direct("refuses").id
    mark = chat.log.mark()
    chat.channels.Send(room, "hello")

    said = chat.system(room, "agent-unavailable", since=mark)

    assert said["error"].startswith("Request had invalid authentication credentials.")
    assert "{" not in said["error"]
    noted = [line for line in logs(chat, "refuses") if "the agent's error as it sent it" in line]
    assert len(noted) == 1 and '"code": 401' in noted[0]
