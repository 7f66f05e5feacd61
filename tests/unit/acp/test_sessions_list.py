"""The agent's own sessions at the ACP boundary (issue 26): capabilities read, `session/list`
pages followed and capped, titles on one line, `logout` sent with the SDK's types."""

from __future__ import annotations

import asyncio
from typing import Any

from acp.schema import AgentCapabilities, ListSessionsResponse

from app.acp.session_titles import MAX_TITLE, title_text
from app.acp.sessions_list import (
    MAX_PAGES,
    ListedSession,
    SessionSupport,
    all_sessions,
    logout,
    session_support,
)


def caps(raw: dict[str, Any]) -> AgentCapabilities:
    return AgentCapabilities.model_validate(raw)


def test_support_is_what_the_agent_advertised() -> None:
    assert session_support(None) == SessionSupport()
    assert session_support(caps({})) == SessionSupport()
    full = caps(
        {
            "sessionCapabilities": {"list": {}, "resume": {}, "close": {}},
            "auth": {"logout": {}},
        }
    )
    assert session_support(full) == SessionSupport(list=True, resume=True, close=True, logout=True)
    assert session_support(caps({"sessionCapabilities": {"list": None}})) == SessionSupport()


def pages(*answers: dict[str, Any]) -> tuple[list[str | None], Any]:
    asked: list[str | None] = []

    async def page(cursor: str | None) -> ListSessionsResponse:
        asked.append(cursor)
        return ListSessionsResponse.model_validate(answers[len(asked) - 1])

    return asked, page


def session(n: int, **extra: Any) -> dict[str, Any]:
    return {"sessionId": f"s{n}", "cwd": "/w", **extra}


def test_every_page_is_read_until_no_cursor() -> None:
    asked, page = pages(
        {
            "sessions": [session(1, title="One", updatedAt="2026-01-01T00:00:00Z")],
            "nextCursor": "a",
        },
        {"sessions": [session(2)], "nextCursor": "b"},
        {"sessions": [session(3)]},
    )
    found = asyncio.run(all_sessions(page))
    assert asked == [None, "a", "b"]
    assert found[0] == ListedSession("s1", "/w", "One", "2026-01-01T00:00:00Z")
    assert [s.session_id for s in found] == ["s1", "s2", "s3"]


def test_a_repeated_cursor_ends_the_list_and_duplicates_are_dropped() -> None:
    asked, page = pages(
        {"sessions": [session(1)], "nextCursor": "same"},
        {"sessions": [session(1), session(2)], "nextCursor": "same"},
    )
    found = asyncio.run(all_sessions(page))
    assert asked == [None, "same"]
    assert [s.session_id for s in found] == ["s1", "s2"]


def test_an_endless_agent_is_read_at_most_max_pages() -> None:
    asked: list[str | None] = []

    async def page(cursor: str | None) -> ListSessionsResponse:
        asked.append(cursor)
        n = len(asked)
        return ListSessionsResponse.model_validate(
            {"sessions": [session(n)], "nextCursor": f"c{n}"}
        )

    found = asyncio.run(all_sessions(page))
    assert len(asked) == MAX_PAGES and len(found) == MAX_PAGES


def test_a_title_is_one_line_of_valid_text_cut_to_its_length() -> None:
    assert title_text("  Fix\nthe\tparser ") == "Fix the parser"
    assert title_text(None) == ""
    long = title_text("x" * 500)
    assert len(long) == MAX_TITLE and long.endswith("…")
    assert title_text("bad \ud800 half") == "bad \ufffd half"


def test_logout_is_sent_as_the_sdks_logout_request() -> None:
    sent: list[tuple[str, Any]] = []

    class Rpc:
        async def send_request(self, method: str, params: Any = None) -> Any:
            sent.append((method, params))
            return {}

    class Conn:
        _conn = Rpc()

    asyncio.run(logout(Conn()))
    assert sent == [("logout", {})]
