"""Whether an agent needs a sign-in, as its answers say (AgentConnection's): told True when it
answers a session or a prompt with "authentication required" (-32000), or with any error
before a sign-in or a prompt succeeded on its process while it announced sign-in methods — then
with its error as the hint (claude-agent-acp without credentials answers session/new -32603
"Claude Code process exited with code 1": a sign-in is likely what it lacks); told False when a
session opens or a sign-in succeeds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from app.acp.errors import AgentRequestError, describe_error

T = TypeVar("T")


class SignInNeeded(Protocol):
    """Told whether the agent needs a sign-in; `hint`: its error when that is only likely."""

    def __call__(self, needed: bool, hint: str = "") -> None: ...


def nobody_told(needed: bool, hint: str = "") -> None:
    pass


class SignInWatch:
    def __init__(self, tell: SignInNeeded, announced: Callable[[], bool]) -> None:
        self.tell, self._announced = tell, announced
        self._proven = False  # a sign-in or a prompt succeeded on this process

    def proven(self) -> None:
        self._proven = True

    async def watch(self, request: Awaitable[T]) -> T:
        """The request's answer; an error that says (or suggests) a sign-in is told first."""
        try:
            return await request
        except AgentRequestError as err:
            if err.auth_required:
                self.tell(True)
            elif self._announced() and not self._proven:
                self.tell(True, describe_error(err))
            raise
