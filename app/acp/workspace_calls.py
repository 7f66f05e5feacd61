"""The agent's file and terminal requests (ACP `fs/*`, `terminal/*`) answered by the session's
`Workspace` (app/acp/workspace.py): SDK requests in, SDK responses or JSON-RPC errors out."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import acp
from acp.schema import (
    CreateTerminalResponse,
    EnvVariable,
    KillTerminalResponse,
    ReadTextFileResponse,
    ReleaseTerminalResponse,
    TerminalExitStatus,
    TerminalOutputResponse,
    WaitForTerminalExitResponse,
    WriteTextFileResponse,
)

from app.acp.workspace import TerminalRequest, Workspace, WorkspaceError
from app.i18n import _


class WorkspaceCalls:
    """Mixed into SidekicksClient: each method finds the session's workspace and calls it."""

    _workspaces: dict[str, Workspace]

    def _workspace(self, session_id: str) -> Workspace:
        workspace = self._workspaces.get(session_id)
        if workspace is None:
            raise acp.RequestError(
                -32002, _("no open session {session} has file access").format(session=session_id)
            )
        return workspace

    async def read_text_file(
        self,
        session_id: str,
        path: str,
        line: int | None = None,
        limit: int | None = None,
        **kwargs: Any,
    ) -> ReadTextFileResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            return ReadTextFileResponse(content=await workspace.read_text_file(path, line, limit))

    async def write_text_file(
        self, session_id: str, path: str, content: str, **kwargs: Any
    ) -> WriteTextFileResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            await workspace.write_text_file(path, content)
        return WriteTextFileResponse()

    async def create_terminal(
        self,
        session_id: str,
        command: str,
        args: list[str] | None = None,
        env: list[EnvVariable] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
        **kwargs: Any,
    ) -> CreateTerminalResponse:
        workspace = self._workspace(session_id)
        request = TerminalRequest(
            command=command,
            args=tuple(args or ()),
            env=tuple((v.name, v.value) for v in env or ()),
            cwd=cwd,
            output_byte_limit=output_byte_limit,
        )
        with _as_rpc_error():
            return CreateTerminalResponse(terminal_id=await workspace.create_terminal(request))

    async def terminal_output(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> TerminalOutputResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            result = await workspace.terminal_output(terminal_id)
        status = (
            TerminalExitStatus(exit_code=result.exit.exit_code, signal=result.exit.signal)
            if result.exit is not None
            else None
        )
        return TerminalOutputResponse(
            output=result.output, truncated=result.truncated, exit_status=status
        )

    async def wait_for_terminal_exit(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> WaitForTerminalExitResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            ended = await workspace.wait_for_terminal_exit(terminal_id)
        return WaitForTerminalExitResponse(exit_code=ended.exit_code, signal=ended.signal)

    async def kill_terminal(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> KillTerminalResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            await workspace.kill_terminal(terminal_id)
        return KillTerminalResponse()

    async def release_terminal(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> ReleaseTerminalResponse:
        workspace = self._workspace(session_id)
        with _as_rpc_error():
            await workspace.release_terminal(terminal_id)
        return ReleaseTerminalResponse()


@contextlib.contextmanager
def _as_rpc_error() -> Iterator[None]:
    """A WorkspaceError leaves as the JSON-RPC error the agent reads."""
    try:
        yield
    except WorkspaceError as error:
        raise acp.RequestError(error.code, str(error)) from None
