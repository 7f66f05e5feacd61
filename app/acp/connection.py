"""One running agent: its process and its ACP connection (the official SDK's client side).

`start()` spawns, connects and performs the `initialize` handshake within 30 s, refusing any
protocol but v1. Every request has its own timeout, except `session/prompt` (an answer may take
hours) which ends when the process does: the exit watcher closes the connection, which fails
pending requests with ConnectionError even if a grandchild still holds stdout open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import acp
from acp.schema import (
    ClientCapabilities,
    EnvVariable,
    FileSystemCapabilities,
    HttpHeader,
    HttpMcpServer,
    Implementation,
    InitializeResponse,
    McpServerStdio,
    SseMcpServer,
    TextContentBlock,
)

from app.acp.client import SessionHandler, SidekicksClient
from app.acp.errors import AgentRequestError, AgentStartError, describe_error, with_stderr
from app.acp.process import AgentProcess, SpawnError
from app.config.model import McpServer
from app.i18n import _
from app.models.conversation import StopReason
from app.version import __version__

log = logging.getLogger(__name__)
T = TypeVar("T")

PROTOCOL_VERSION = 1
INITIALIZE_TIMEOUT = 30.0
SESSION_TIMEOUT = 120.0  # session/new can install a package first (npx -y …)
ERROR_TAIL_LINES = 20


class AgentConnection:
    def __init__(
        self,
        command: list[str],
        env: dict[str, str],
        cwd: Path,
        on_log: Callable[[str], None],
        on_exit: Callable[[int | None], None],
        mcp_servers: list[McpServer] | None = None,
        log_ring: deque[str] | None = None,
    ) -> None:
        self._log_ring = log_ring
        self._command, self._env, self.cwd = command, env, cwd
        self._on_log, self._on_exit = on_log, on_exit
        self._mcp = mcp_servers or []
        self.process: AgentProcess | None = None
        self.client = SidekicksClient()
        self._conn: acp.ClientSideConnection | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self._stopping = False
        self.info: InitializeResponse | None = None

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self, timeout: float = INITIALIZE_TIMEOUT) -> None:
        try:
            self.process = await AgentProcess.spawn(
                self._command, self._env, self.cwd, self._on_log, self._log_ring
            )
        except SpawnError as err:
            raise AgentStartError(str(err)) from None
        proc = self.process.proc
        assert proc.stdin is not None and proc.stdout is not None
        self._conn = acp.connect_to_agent(cast(acp.Client, self.client), proc.stdin, proc.stdout)
        try:
            self.info = await self._handshake(timeout)
        except AgentStartError:
            await self.process.stop(stdin_grace=0.5, term_grace=1.0)
            with contextlib.suppress(Exception):
                await self._conn.close()
            raise
        self._watch_task = asyncio.get_running_loop().create_task(self._watch_exit())

    async def _handshake(self, timeout: float) -> InitializeResponse:
        assert self._conn is not None and self.process is not None
        init = asyncio.ensure_future(
            self._conn.initialize(
                protocol_version=PROTOCOL_VERSION,
                client_capabilities=ClientCapabilities(
                    fs=FileSystemCapabilities(read_text_file=False, write_text_file=False),
                    terminal=False,
                ),
                client_info=Implementation(
                    name="sidekicks", title="Sidekicks", version=__version__
                ),
            )
        )
        exited = asyncio.ensure_future(self.process.wait_exit())
        try:
            done, _pending = await asyncio.wait(
                {init, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            exited.cancel()
        if init in done and init.exception() is None:
            response = cast(InitializeResponse, init.result())
            if response.protocol_version != PROTOCOL_VERSION:
                raise await self._start_error(
                    _("the agent speaks ACP version {version}; Sidekicks speaks version 1").format(
                        version=response.protocol_version
                    )
                )
            return response
        init.cancel()
        if init in done and isinstance(init.exception(), ConnectionError):
            # stdout closed: the process is exiting; its exit code says more than "closed".
            await self.process.wait_exit(1.0)
        if init in done and not self.process.exited():
            reason = _("the agent refused to start: {error}").format(
                error=describe_error(typed_error(init.exception() or Exception()))
            )
        elif self.process.exited():
            reason = _("the agent exited during start (exit code {code})").format(
                code=self.process.returncode
            )
        else:
            reason = _("the agent did not answer `initialize` within {seconds} s").format(
                seconds=f"{timeout:g}"
            )
        raise await self._start_error(reason)

    async def _start_error(self, reason: str) -> AgentStartError:
        assert self.process is not None
        await self.process.stderr_done(timeout=0.5)
        return AgentStartError(with_stderr(reason, self.process.stderr.tail(ERROR_TAIL_LINES)))

    async def _watch_exit(self) -> None:
        assert self.process is not None
        await self.process.wait_exit()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()  # fails pending requests with ConnectionError
        if not self._stopping:
            await self.process.stderr_done(timeout=0.5)
            self._on_exit(self.process.returncode)

    async def stop(self, stdin_grace: float = 5.0, term_grace: float = 3.0) -> None:
        self._stopping = True
        if self.process is not None:
            await self.process.stop(stdin_grace, term_grace)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        if self._watch_task is not None:
            self._watch_task.cancel()

    def exited(self) -> bool:
        return self.process is not None and self.process.exited()

    # ---- sessions ----------------------------------------------------------------------------

    @property
    def supports_load(self) -> bool:
        caps = self.info.agent_capabilities if self.info else None
        return bool(caps and caps.load_session)

    def stderr_tail(self, count: int = ERROR_TAIL_LINES) -> list[str]:
        return self.process.stderr.tail(count) if self.process else []

    async def new_session(self, handler: SessionHandler) -> str:
        conn = self._require()
        response = await _request(
            conn.new_session(cwd=str(self.cwd), mcp_servers=self._mcp_servers()), SESSION_TIMEOUT
        )
        session_id: str = response.session_id
        self.client.attach(session_id, handler)
        return session_id

    async def load_session(self, session_id: str, handler: SessionHandler) -> None:
        """Replayed updates reach `handler` before this returns (the caller may ignore them)."""
        conn = self._require()
        self.client.attach(session_id, handler)
        try:
            await _request(
                conn.load_session(
                    cwd=str(self.cwd), session_id=session_id, mcp_servers=self._mcp_servers()
                ),
                SESSION_TIMEOUT,
            )
        except BaseException:
            self.client.detach(session_id)
            raise

    async def prompt(self, session_id: str, text: str) -> StopReason:
        """Sends one user turn; returns the stop reason."""
        conn = self._require()
        response = await _request(
            conn.prompt(session_id=session_id, prompt=[TextContentBlock(type="text", text=text)])
        )
        reason: StopReason = response.stop_reason
        return reason

    async def cancel(self, session_id: str) -> None:
        if self._conn is None or self.exited():
            return
        with contextlib.suppress(Exception):
            await _request(self._conn.cancel(session_id=session_id), 5.0)

    def _require(self) -> acp.ClientSideConnection:
        if self._conn is None or self.exited():
            raise ConnectionError("the agent is not running")
        return self._conn

    def _mcp_servers(self) -> list[Any]:
        caps = self.info.agent_capabilities if self.info else None
        mcp_caps = caps.mcp_capabilities if caps else None
        servers: list[Any] = []
        for server in self._mcp:
            if server.command is not None:
                servers.append(
                    McpServerStdio(
                        name=server.name,
                        command=server.command,
                        args=server.args,
                        env=[EnvVariable(name=k, value=v) for k, v in server.env.items()],
                    )
                )
                continue
            supported = bool(mcp_caps and getattr(mcp_caps, server.type, False))
            if not supported:
                self._on_log(
                    f"[sidekicks] MCP server {server.name!r} skipped: "
                    f"the agent does not support {server.type} MCP servers"
                )
                continue
            headers = [HttpHeader(name=k, value=v) for k, v in server.headers.items()]
            model = HttpMcpServer if server.type == "http" else SseMcpServer
            servers.append(
                model(type=server.type, name=server.name, url=server.url or "", headers=headers)
            )
        return servers


def typed_error(err: BaseException) -> BaseException:
    """The SDK's JSON-RPC error as ours (errors are classified by type past app/acp)."""
    if isinstance(err, acp.RequestError):
        return AgentRequestError(err.code, str(err), err.data)
    return err


async def _request(awaitable: Awaitable[T], timeout: float | None = None) -> T:
    """A request to the agent, with its timeout (None: until the process ends), whose errors
    are ours: AgentRequestError, ConnectionError, or a TimeoutError that says how long."""
    try:
        return await asyncio.wait_for(awaitable, timeout)
    except TimeoutError:
        raise TimeoutError(
            _("the agent did not answer within {seconds} s").format(seconds=f"{timeout:g}")
        ) from None
    except acp.RequestError as err:
        raise typed_error(err) from None
