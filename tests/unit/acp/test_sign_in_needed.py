"""When an agent needs a sign-in, as its answers say (app/acp/sign_in_needed.py): "authentication
required" always; any other error only before a sign-in or a prompt succeeded, and only from an
agent that announced sign-in methods (then with its error as the hint)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from app.acp.errors import AgentRequestError
from app.acp.sign_in_needed import SignInWatch


def watched(announced: bool) -> tuple[SignInWatch, list[tuple[bool, str]]]:
    told: list[tuple[bool, str]] = []
    return SignInWatch(lambda needed, hint="": told.append((needed, hint)), lambda: announced), told


def fails(code: int, message: str) -> Callable[[], Awaitable[None]]:
    async def answer() -> None:
        raise AgentRequestError(code, message)

    return answer


def run(watch: SignInWatch, answer: Callable[[], Awaitable[None]]) -> None:
    with pytest.raises(AgentRequestError):
        asyncio.run(watch.watch(answer()))


def test_an_error_before_any_success_suggests_a_sign_in_with_the_agents_words() -> None:
    watch, told = watched(announced=True)
    run(watch, fails(-32603, "Claude Code process exited with code 1"))
    assert told == [(True, "Claude Code process exited with code 1")]


def test_authentication_required_is_said_without_a_hint_even_after_a_success() -> None:
    watch, told = watched(announced=True)
    watch.proven()
    run(watch, fails(-32000, "Authentication required"))
    assert told == [(True, "")]


def test_no_suggestion_after_a_success_nor_from_an_agent_without_sign_in_methods() -> None:
    watch, told = watched(announced=True)
    watch.proven()
    run(watch, fails(-32603, "rate limited"))
    other, told_other = watched(announced=False)
    run(other, fails(-32603, "Internal error"))
    assert told == [] and told_other == []
