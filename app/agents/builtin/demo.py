"""The built-in demo agent: ACP v1 on stdin/stdout, no model, no key, works offline.

Run with `python -m app --agent demo` (or `Sidekicks --agent demo` when frozen). It shows every
kind of message an ACP agent can send (see `demo_script`), keeps its sessions on disk so that
`session/load` works after a restart, and stops a turn as soon as the client cancels it.

Only the standard library, `acp`, `pydantic` and `app.paths` may be imported here: the frozen app
starts this in place of its window, and nothing but JSON-RPC may reach stdout (logs go to stderr).

Environment:
- `SIDEKICKS_DEMO_DELAY`: seconds between streamed chunks (default 0.02; tests use 0).
- `SIDEKICKS_DEMO_SESSIONS`: the folder of session files
  (default `<user config dir>/sidekicks/builtin/demo/sessions`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, cast

from acp import (
    PROTOCOL_VERSION,
    Agent,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    RequestError,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
    run_agent,
    stdio_streams,
    update_agent_message_text,
    update_user_message_text,
)
from acp.interfaces import Client
from acp.schema import (
    AcpMcpServer,
    AgentCapabilities,
    AudioContentBlock,
    ClientCapabilities,
    CurrentModeUpdate,
    EmbeddedResourceContentBlock,
    HttpMcpServer,
    ImageContentBlock,
    Implementation,
    McpServerStdio,
    PromptCapabilities,
    ResourceContentBlock,
    SseMcpServer,
    TextContentBlock,
    UsageUpdate,
)

from app.agents.builtin import demo_settings
from app.agents.builtin.demo_script import Reply, available_commands, play
from app.agents.builtin.demo_store import CONTEXT_WINDOW, SessionRecord, SessionStore
from app.agents.builtin.demo_stream import Stream, Update
from app.paths import app_config_dir
from app.version import __version__

log = logging.getLogger("sidekicks.demo")

DEFAULT_DELAY = 0.02
STDIO_LIMIT = 64 * 1024 * 1024  # one JSON-RPC message per line, and a prompt can be big
AGENT_NAME = "sidekicks-demo"
INVALID_REQUEST = -32600

McpServer = HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio
ContentBlock = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)


class DemoAgent:
    """The ACP methods the demo answers. The SDK routes only the methods an agent defines, so the
    ones left out (authenticate, session/list…) get a proper "method not found"."""

    def __init__(self, store: SessionStore, delay: float) -> None:
        self._store = store
        self._delay = delay
        self._client: Client | None = None
        self._sessions: dict[str, SessionRecord] = {}
        self._turns: dict[str, asyncio.Task[Reply]] = {}  # session id → its running turn
        self._background: set[asyncio.Task[None]] = set()

    def on_connect(self, conn: Client) -> None:
        self._client = conn

    @property
    def client(self) -> Client:
        if self._client is None:
            raise RuntimeError("the demo agent is not connected")
        return self._client

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        # Always the version we speak, whatever was asked: the client decides whether it can cope.
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                # Text only: images and files get a polite "I cannot read that".
                prompt_capabilities=PromptCapabilities(
                    image=False, audio=False, embedded_context=False
                ),
            ),
            agent_info=Implementation(name=AGENT_NAME, title="Sidekicks demo", version=__version__),
        )

    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[McpServer] | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        session = self._store.create(cwd, server_names(mcp_servers))
        self._sessions[session.id] = session
        # Announced just after the result, like real agents do: the client knows the id by then.
        self._after_reply(self._announce_commands(session.id))
        return NewSessionResponse(
            session_id=session.id,
            modes=demo_settings.modes(session),
            config_options=demo_settings.config_options(session),
        )

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        mcp_servers: list[McpServer] | None = None,
        additional_directories: list[str] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        session = self._sessions.get(session_id) or self._store.load(session_id)
        session.cwd = cwd
        session.mcp_servers = server_names(mcp_servers)
        self._store.save(session)
        self._sessions[session_id] = session
        # ACP wants the whole history replayed before the result.
        for turn in session.turns:
            await self._send(session_id, update_user_message_text(turn.user))
            await self._send(session_id, update_agent_message_text(turn.answer))
        await self._announce_commands(session_id)
        await self._send(session_id, usage_update(session))
        return LoadSessionResponse(
            modes=demo_settings.modes(session),
            config_options=demo_settings.config_options(session),
        )

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        session = self._open_session(session_id)
        demo_settings.set_mode(session, mode_id)
        self._store.save(session)
        # Confirmed by a notification too, as real agents do.
        update = CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode_id)
        self._after_reply(self._send(session_id, update))
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        session = self._open_session(session_id)
        demo_settings.set_option(session, config_id, value)
        self._store.save(session)
        return SetSessionConfigOptionResponse(config_options=demo_settings.config_options(session))

    async def prompt(
        self, session_id: str, prompt: list[ContentBlock], **kwargs: Any
    ) -> PromptResponse:
        session = self._open_session(session_id)
        if session_id in self._turns:
            raise RequestError(
                INVALID_REQUEST,
                f"Session {session_id} is still answering: wait for its turn to end, or cancel it",
                {"sessionId": session_id},
            )
        text, ignored = read_prompt(prompt)
        stream = Stream(self.client, session_id, self._delay)
        turn = asyncio.create_task(play(stream, session, text, ignored))
        self._turns[session_id] = turn
        try:
            reply = await turn
        except asyncio.CancelledError:
            if _being_cancelled():  # the connection is closing: this is not a user's cancel
                raise
            reply = Reply("cancelled")
        finally:
            del self._turns[session_id]
        # A cancelled turn is remembered too, with the part of the answer the user saw.
        session.remember(text, stream.answer)
        self._store.save(session)
        if reply.reports_usage:
            await stream.send(usage_update(session))
        return PromptResponse(stop_reason=reply.stop_reason)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        # Cancelling the task interrupts whatever the turn awaits (a pause, a send, a permission
        # answer) at once; `prompt` then answers `cancelled`.
        turn = self._turns.get(session_id)
        if turn is not None:
            turn.cancel()

    def _open_session(self, session_id: str) -> SessionRecord:
        session = self._sessions.get(session_id)
        if session is None:
            # Lenient: a client that skipped session/load after a restart still gets its session.
            session = self._sessions[session_id] = self._store.load(session_id)
        return session

    async def _announce_commands(self, session_id: str) -> None:
        await self._send(session_id, available_commands())

    async def _send(self, session_id: str, update: Update) -> None:
        await self.client.session_update(session_id=session_id, update=update)

    def _after_reply(self, coroutine: Coroutine[Any, Any, None]) -> None:
        # The SDK queues the reply before a task created now gets to run; keep a reference so the
        # task is not garbage collected mid-flight.
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background_done)

    def _background_done(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            # Usually the client left (ConnectionError); nobody is there to tell but the log.
            log.info("could not announce the commands: %s", error)


def _being_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


_BLOCK_NAMES = {"image": "an image", "audio": "an audio clip", "resource": "an attached file"}


def read_prompt(prompt: list[ContentBlock]) -> tuple[str, list[str]]:
    """The prompt's text, and a description of each block the demo cannot read (images…)."""
    texts: list[str] = []
    ignored: list[str] = []
    for block in prompt:
        if isinstance(block, TextContentBlock):
            texts.append(block.text)
        elif isinstance(block, ResourceContentBlock):
            ignored.append(f"a link to {block.uri}")
        else:
            ignored.append(_BLOCK_NAMES.get(block.type, f"a {block.type} block"))
    return "\n\n".join(texts), ignored


def server_names(servers: list[McpServer] | None) -> list[str]:
    return [server.name for server in servers or []]


def usage_update(session: SessionRecord) -> UsageUpdate:
    return UsageUpdate(session_update="usage_update", used=session.used, size=CONTEXT_WINDOW)


def pacing_delay() -> float:
    raw = os.environ.get("SIDEKICKS_DEMO_DELAY", "")
    if not raw:
        return DEFAULT_DELAY
    try:
        delay = float(raw)
    except ValueError:
        delay = -1.0
    if not 0 <= delay <= 60:  # also rejects nan and inf
        log.warning(
            "SIDEKICKS_DEMO_DELAY=%r is not a number of seconds: using %s", raw, DEFAULT_DELAY
        )
        return DEFAULT_DELAY
    return delay


def sessions_folder() -> Path:
    custom = os.environ.get("SIDEKICKS_DEMO_SESSIONS")
    if custom:
        return Path(custom).expanduser()
    return app_config_dir() / "builtin" / "demo" / "sessions"


def main() -> int:
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="demo agent: %(levelname)s %(message)s"
    )
    agent = DemoAgent(SessionStore(sessions_folder()), pacing_delay())
    try:
        return asyncio.run(serve(agent))
    except KeyboardInterrupt:
        return 130


async def serve(agent: DemoAgent) -> int:
    """Speaks ACP on stdin/stdout until stdin closes."""
    try:
        reader, writer = await stdio_streams(limit=STDIO_LIMIT)
    except ValueError:
        # asyncio only streams pipes, sockets and terminals: `> file` or `< file` cannot work.
        log.error("stdin and stdout must be pipes: an ACP client starts this agent, not a shell")
        return 2
    # DemoAgent has only the methods it answers, so it is not a full `Agent` for the checker.
    await run_agent(cast(Agent, agent), writer, reader)
    return 0
