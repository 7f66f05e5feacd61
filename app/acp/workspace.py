"""What an agent may do on the person's machine through Sidekicks (ACP client capabilities
`fs.readTextFile`, `fs.writeTextFile` and `terminal`), as one typed interface per session.

app/acp/client.py turns the agent's requests into calls on the session's `Workspace` and the
answers back into ACP responses; a `WorkspaceError` becomes the JSON-RPC error the agent reads.
Nothing here imports the SDK: the core implements `Workspace` without seeing ACP classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

# JSON-RPC codes the agent gets: its request was wrong (a relative path, an unknown terminal),
# what it names does not exist, or it was refused or failed on our side.
ErrorKind = Literal["invalid", "not_found", "refused", "failed"]
ERROR_CODES: dict[ErrorKind, int] = {
    "invalid": -32602,
    "not_found": -32002,
    "refused": -32000,
    "failed": -32603,
}


class WorkspaceError(Exception):
    """A request the workspace could not carry out; its text is what the agent reads."""

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind

    @property
    def code(self) -> int:
        return ERROR_CODES[self.kind]


@dataclass(frozen=True, slots=True)
class TerminalExit:
    """How a command ended: its exit code, or the signal that killed it (e.g. "SIGKILL")."""

    exit_code: int | None = None
    signal: str | None = None


@dataclass(frozen=True, slots=True)
class TerminalOutput:
    output: str
    truncated: bool
    exit: TerminalExit | None  # None while the command runs


@dataclass(frozen=True, slots=True)
class TerminalRequest:
    """ACP `terminal/create`: `command` with `args`, in `cwd` (absolute, or None: the agent's
    working folder), with `env` added to the environment; `output_byte_limit` bytes of output
    kept at most (the tail, cut at a character boundary)."""

    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None
    output_byte_limit: int | None = None


class Workspace(Protocol):
    """One session's access to files and commands, on behalf of its agent."""

    async def read_text_file(self, path: str, line: int | None, limit: int | None) -> str: ...

    async def write_text_file(self, path: str, content: str) -> None: ...

    async def create_terminal(self, request: TerminalRequest) -> str:
        """Starts the command; its terminal id."""
        ...

    async def terminal_output(self, terminal_id: str) -> TerminalOutput: ...

    async def wait_for_terminal_exit(self, terminal_id: str) -> TerminalExit: ...

    async def kill_terminal(self, terminal_id: str) -> None: ...

    async def release_terminal(self, terminal_id: str) -> None: ...


def session_cwd(workspace: Workspace | None, default: Path) -> str:
    """The `cwd` a session opens in: its workspace's own folder when it has one (an isolated
    member's worktree, issue 28: `cwd`, a Path), else the agent's."""
    own = getattr(workspace, "cwd", None)
    return str(own if isinstance(own, Path) else default)
