"""One running agent: its process and its ACP connection (the official SDK's client side).

`start()` spawns, connects and performs the `initialize` handshake within 30 s, refusing any
protocol but v1. The SDK reads messages through our transport (app/acp/lines.py), which lets only
JSON objects through. Every request has its own timeout, except `session/prompt` (an answer may
take hours), and every request ends when the connection does:

- the process exits: the exit watcher fails pending requests with ConnectionError (even if a
  grandchild still holds stdout open) and reports the exit (`on_exit`);
- the connection is lost while the process lives (the SDK's receive loop died, or stdout closed
  and the process did not exit): pending requests fail the same way and the loss is reported
  with its reason (`on_lost`); the owner stops the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import acp
from acp.meta import AGENT_METHODS
from acp.schema import InitializeResponse, LoadSessionRequest, NewSessionRequest

from app.acp import session_models
from app.acp.cancel_request import Cancels
from app.acp.client import SessionHandler, SidekicksClient
from app.acp.errors import AgentStartError
from app.acp.handshake import ERROR_TAIL_LINES, initialize
from app.acp.lines import JsonLines, TextListener
from app.acp.link import EXIT_GRACE, Link, lost_reason
from app.acp.mcp import mcp_servers_for
from app.acp.notices import Notices
from app.acp.process import AgentProcess, SpawnError
from app.acp.prompt_content import prompt_support, sdk_prompt
from app.acp.prompts import PromptBlock, PromptText
from app.acp.sessions_list import OwnSessions, SessionSupport, session_support
from app.acp.sign_in_needed import SignInNeeded, SignInWatch, nobody_told
from app.acp.translate import auth_methods, session_options, session_setup
from app.acp.updates import AuthMethod, SessionOption, SessionSetup
from app.acp.workspace import Workspace, session_cwd
from app.i18n.text import Text
from app.models.conversation import StopReason
from app.models.mcp import McpServer

log = logging.getLogger(__name__)
T = TypeVar("T")


INITIALIZE_TIMEOUT = 30.0
SESSION_TIMEOUT = 120.0  # session/new can install a package first (npx -y …)


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
        on_lost: Callable[[Text], None] | None = None,
        on_sign_in_needed: SignInNeeded | None = None,
    ) -> None:
        # Told whether the agent needs a sign-in, as its answers say (sign_in_needed.py).
        self._sign_in = SignInWatch(
            on_sign_in_needed or nobody_told, lambda: bool(self.auth_methods)
        )
        self._log_ring = log_ring
        self._command, self._env, self.cwd = command, env, cwd
        self._on_log, self._on_exit = on_log, on_exit
        self._on_lost = on_lost or (lambda reason: log.warning("agent connection lost: %s", reason))
        self._mcp = mcp_servers or []
        self.process: AgentProcess | None = None
        self.client = SidekicksClient(self.note)
        self._notices = Notices(self.note)
        self._link: Link | None = None  # the SDK connection, from the start until it ends
        self._lines: JsonLines | None = None
        self._watch_tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self.info: InitializeResponse | None = None
        self.auth_methods: tuple[AuthMethod, ...] = ()

    @property
    def env(self) -> dict[str, str]:
        """The variables the agent was given on top of the app's environment (its commands
        get them too: app/workspace/terminals.py)."""
        return dict(self._env)

    def note(self, line: str) -> None:
        """Sidekicks' own line in the agent's log: streamed (`agent:log`) and kept for `Logs`."""
        if self._log_ring is not None:
            self._log_ring.append(line)
        self._on_log(line)

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self, timeout: float = INITIALIZE_TIMEOUT) -> None:
        try:
            self.process = await AgentProcess.spawn(
                self._command, self._env, self.cwd, self._on_log, self._log_ring
            )
        except SpawnError as err:
            raise AgentStartError(err.reason) from None
        proc = self.process.proc
        assert proc.stdin is not None and proc.stdout is not None
        # `$/cancel_request` both ways sits between the SDK and the lines (cancel_request.py);
        # the SDK routes elicitation (client.py) only with its "unstable" methods on.
        self._lines = JsonLines(proc.stdout, proc.stdin, self._notices)
        transport = self.client.cancels = Cancels(self._lines)
        link = self._link = Link(
            acp.connect_to_agent(
                cast(acp.Client, self.client), transport, use_unstable_protocol=True
            ),
            transport,
        )
        try:
            self.info = await initialize(link, self.process, timeout)
            self.auth_methods = auth_methods(self.info.auth_methods)
        except AgentStartError:
            await self.process.stop(stdin_grace=0.5, term_grace=1.0)
            await link.close()
            raise
        loop = asyncio.get_running_loop()
        self._watch_tasks = [
            loop.create_task(self._watch_exit(link)),
            loop.create_task(self._watch_receive(link)),
        ]

    async def _watch_exit(self, link: Link) -> None:
        assert self.process is not None
        await self.process.wait_exit()
        if link.end() and not self._stopping:
            await self.process.stderr_done(timeout=0.5)
            self._on_exit(self.process.returncode)

    async def _watch_receive(self, link: Link) -> None:
        assert self.process is not None
        receiving = link.receive_task()
        await asyncio.wait({receiving})
        if self._stopping or await self.process.wait_exit(EXIT_GRACE):
            return  # a stop, or an exit (reported as such by the exit watcher)
        if link.end() and not self._stopping:
            self._on_lost(lost_reason(receiving))

    async def stop(self, stdin_grace: float = 5.0, term_grace: float = 3.0) -> None:
        self._stopping = True
        if self.process is not None:
            await self.process.stop(stdin_grace, term_grace)
        if self._link is not None:
            self._link.end()
            await self._link.close()
        for task in self._watch_tasks:
            task.cancel()
        self._notices.close()

    def exited(self) -> bool:
        return self.process is not None and self.process.exited()

    @property
    def connected(self) -> bool:
        return self._link is not None and self._link.open and not self.exited()

    # ---- sessions ----------------------------------------------------------------------------

    @property
    def supports_load(self) -> bool:
        caps = self.info.agent_capabilities if self.info else None
        return bool(caps and caps.load_session)

    def stderr_tail(self, count: int = ERROR_TAIL_LINES) -> list[str]:
        return self.process.stderr.tail(count) if self.process else []

    async def authenticate(self, method_id: str, on_text: TextListener | None = None) -> None:
        """ACP `authenticate` with one of the agent's `agent`-type methods (the agent signs in
        by itself, e.g. in a browser: no timeout while the connection lasts). `on_text` is told
        what the agent prints on stdout for the person meanwhile (app/acp/lines.py)."""
        link, lines = self._open_link(), self._lines
        assert lines is not None
        with lines.listening(on_text):
            await link.request(link.conn.authenticate(method_id=method_id))
        self._sign_in.proven()
        self._sign_in.tell(False)

    async def write_line(self, text: str) -> None:
        """`text` and a newline on the agent's stdin, for an agent reading it for a person."""
        self._open_link()
        assert self._lines is not None
        await self._lines.send_text(text)

    async def new_session(
        self, handler: SessionHandler, workspace: Workspace | None = None
    ) -> SessionSetup:
        """A new session: its id, and the modes and options it starts with. The agent's file
        and terminal requests in it go to `workspace` (refused without one)."""
        link = self._open_link()
        response = await self._sign_in.watch(
            link.request(
                session_models.request(
                    link.conn,
                    AGENT_METHODS["session_new"],
                    NewSessionRequest(
                        cwd=session_cwd(workspace, self.cwd), mcp_servers=self._mcp_servers()
                    ),
                    session_models.NewSessionResponseWithModels,  # with the older `models`
                ),
                SESSION_TIMEOUT,
            )
        )
        self._sign_in.tell(False)
        session_id: str = response.session_id
        self.client.attach(session_id, handler, workspace)
        return session_setup(session_id, response)

    async def load_session(
        self, session_id: str, handler: SessionHandler, workspace: Workspace | None = None
    ) -> SessionSetup:
        """Replayed updates reach `handler` before this returns (the caller may ignore them).
        The modes and options the resumed session has."""
        link, cwd = self._open_link(), session_cwd(workspace, self.cwd)
        params = LoadSessionRequest(cwd=cwd, session_id=session_id, mcp_servers=self._mcp_servers())
        answer = session_models.LoadSessionResponseWithModels  # with the older `models`
        self.client.attach(session_id, handler, workspace)
        try:
            load = session_models.request(link.conn, AGENT_METHODS["session_load"], params, answer)
            response = await self._sign_in.watch(link.request(load, SESSION_TIMEOUT))
        except BaseException:
            self.client.detach(session_id)
            raise
        return session_setup(session_id, response)

    @property
    def session_support(self) -> SessionSupport:
        return session_support(self.info.agent_capabilities if self.info else None)

    @property
    def own_sessions(self) -> OwnSessions:
        """`session/list`, `session/resume`, `session/close`, `logout` (sessions_list.py)."""
        link, cwd = self._open_link(), str(self.cwd)
        return OwnSessions(link, self.client, cwd, self._mcp_servers, self._sign_in.tell)

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        """ACP `session/set_mode`; the agent may also confirm with a `current_mode_update`."""
        link = self._open_link()
        await link.request(
            link.conn.set_session_mode(session_id=session_id, mode_id=mode_id), SESSION_TIMEOUT
        )

    async def set_model(self, session_id: str, model_id: str) -> None:
        """ACP `session/set_model` (the older models: app/acp/session_models.py)."""
        link = self._open_link()
        params = session_models.SetSessionModelRequest(session_id=session_id, model_id=model_id)
        answer = session_models.SetModelAnswer
        await link.request(
            session_models.request(link.conn, session_models.SET_MODEL, params, answer),
            SESSION_TIMEOUT,
        )

    async def set_option(
        self, session_id: str, option_id: str, value: str | bool
    ) -> tuple[SessionOption, ...]:
        """ACP `session/set_config_option`: every option with its value afterwards."""
        link = self._open_link()
        response = await link.request(
            link.conn.set_config_option(config_id=option_id, session_id=session_id, value=value),
            SESSION_TIMEOUT,
        )
        return session_options(response.config_options)

    async def prompt(self, session_id: str, prompt: str | Sequence[PromptBlock]) -> StopReason:
        """Sends one user turn (text, or typed blocks with files: app/acp/prompts.py, read now
        and sent as the agent's promptCapabilities allow); returns the stop reason."""
        link = self._open_link()
        blocks = [PromptText(prompt)] if isinstance(prompt, str) else prompt
        support = prompt_support(self.info.agent_capabilities if self.info else None)
        content = await asyncio.to_thread(sdk_prompt, blocks, support)  # reads files
        response = await self._sign_in.watch(
            link.request(link.conn.prompt(session_id=session_id, prompt=content))
        )
        self._sign_in.proven()
        reason: StopReason = response.stop_reason
        return reason

    async def cancel(self, session_id: str) -> None:
        if self._link is None or not self.connected:
            return
        for sid in [session_id, *self.client.cancellable(session_id)]:  # its sub-agents too
            with contextlib.suppress(Exception):
                await self._link.request(self._link.conn.cancel(session_id=sid), 5.0)

    def _open_link(self) -> Link:
        if self._link is None or not self.connected:
            raise ConnectionError("the agent is not running")
        return self._link

    def _mcp_servers(self) -> list[Any]:
        caps = self.info.agent_capabilities if self.info else None
        return mcp_servers_for(self._mcp, caps.mcp_capabilities if caps else None, self.note)
