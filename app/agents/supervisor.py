"""The agents supervisor: SPEC §1's state machine, limits and idle stop, on the core loop.

    stopped/error --start--> starting --handshake ok--> ready <--use/release--> busy
    starting --fails/timeout/not v1--> error        ready/busy --stop--> stopped
    ready/busy --process exits by itself--> error (never restarted automatically)
    ready/busy --connection lost, process alive--> error, and the process is stopped
    ready --idle for stopIdleAgentsAfter, or LRU eviction for a new start--> stopped
    starting --stop--> stopped (the handshake is ended at once: its process is killed)

The channels (app/channels/turns.py) use `acquire` / `release` around each answer; the UI
uses `start`, `stop`, `restart` through AgentService. Every change of state or definition
emits `agent:state`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.errors import AgentStartError, with_stderr
from app.agents.connecting import connection_for
from app.agents.credentials.store import Credentials
from app.agents.idle import IdleStops
from app.agents.limits import Evictions, make_room
from app.agents.runtime import AgentRuntime
from app.agents.sign_in import load_saved, sign_in_saved
from app.config.model import Config
from app.core.errors import UserError
from app.core.tasks import Background
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import AgentLog, AgentStateChanged
from app.i18n import _
from app.i18n.text import Text
from app.models.agents import AgentInfo, AgentState

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection


@dataclass
class Tuning:
    """Timings, injectable so tests run fast; the defaults are the SPEC's."""

    idle_check_period: float = 30.0
    stdin_grace: float = 5.0
    term_grace: float = 3.0
    initialize_timeout: float = 30.0
    clock: Callable[[], float] = time.monotonic


class Supervisor:
    def __init__(
        self, bus: EventBus, tuning: Tuning | None = None, credentials: Credentials | None = None
    ) -> None:
        self._bus = bus
        self.tuning = tuning or Tuning()
        self.credentials = credentials or Credentials.from_environment()
        self._agents: dict[str, AgentRuntime] = {}
        self._config = Config()
        self.config_dir = Path.home()
        self.idle = IdleStops(
            lambda: list(self._agents.values()),
            lambda: self._config.limits.stop_idle_agents_after,
            self._stop_running,
            self.tuning.idle_check_period,
            self.tuning.clock,
        )
        self._stops = Background()  # stops that nobody waits for; `stop_all` does
        self.evictions = Evictions(bus)  # agents stopped to make room, said (issue 29)

    # ---- configuration -----------------------------------------------------------------------

    def apply_config(self, config: Config, config_dir: Path) -> None:
        """A new valid configuration: update definitions, mark `outdated`, stop removed agents."""
        new_language = config.language != self._config.language
        self._config, self.config_dir = config, config_dir
        wanted = {a.name: a for a in config.agents}
        for name, runtime in list(self._agents.items()):
            if name not in wanted:
                runtime.removed = True
                del self._agents[name]
                if runtime.running:
                    self._stops.start(self._stop(runtime))
        ordered: dict[str, AgentRuntime] = {}
        for name, definition in wanted.items():
            existing = self._agents.get(name)
            if existing is None:
                ordered[name] = AgentRuntime(definition, saved_method=self._saved_method(name))
                self._emit_state(ordered[name])
                continue
            changed = existing.definition != definition
            existing.definition = definition
            ordered[name] = existing
            if changed:
                self._emit_state(existing)
        for runtime in ordered.values():
            runtime.config_dir = config_dir  # where its program and folder are looked up
        self._agents = ordered
        for runtime in ordered.values() if new_language else ():  # reasons said in it now
            if runtime.error:
                self._emit_state(runtime)
        self.idle.watch()

    # ---- queries -----------------------------------------------------------------------------

    def infos(self) -> list[AgentInfo]:
        return [r.info() for r in self._agents.values()]

    def runtime(self, name: str) -> AgentRuntime:
        runtime = self._agents.get(name)
        if runtime is None:
            raise UserError(_("there is no agent named {name}").format(name=f"`{name}`"))
        return runtime

    def logs(self, name: str) -> list[str]:
        return list(self.runtime(name).logs)

    def names(self) -> list[str]:
        return list(self._agents)

    def _saved_method(self, name: str) -> str | None:
        try:
            return self.credentials.saved_method(name)
        except UserError:
            return None  # a damaged index: said when the agent starts

    # ---- start / stop ------------------------------------------------------------------------

    async def start(self, name: str) -> AgentConnection:
        """Starts the agent if needed and waits until it is ready (or raises UserError)."""
        runtime = self.runtime(name)
        if runtime.state in ("ready", "busy") and runtime.conn is not None:
            return runtime.conn
        if runtime.start_task is None:
            await self._make_room(runtime)
            if runtime.start_task is None:  # _make_room awaited: someone else may have started it
                runtime.start_task = asyncio.get_running_loop().create_task(self._start(runtime))
        task = runtime.start_task
        try:
            return await asyncio.shield(task)
        except AgentStartError as err:
            raise UserError(str(err)) from None
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if task.cancelled() and not (current and current.cancelling()):
                raise UserError(_("the agent was stopped while it was starting")) from None
            raise  # this caller itself was cancelled

    async def _start(self, runtime: AgentRuntime) -> AgentConnection:
        definition = runtime.definition
        runtime.error, runtime.stop_after_start = "", False
        self._set_state(runtime, "starting")
        conn: AgentConnection | None = None
        try:
            saved = await load_saved(self, runtime)
            values = saved.values if saved else {}
            conn = connection_for(
                runtime, definition, self.config_dir, values, self._bus, self._failed, self.announce
            )
            await conn.start(timeout=self.tuning.initialize_timeout)
            runtime.conn, runtime.started_with = conn, definition
            runtime.auth_methods = conn.auth_methods
            runtime.lists_sessions = conn.session_support.list
            runtime.logs_out = conn.session_support.logout
            if saved is not None:
                await sign_in_saved(self, runtime, conn, saved)
        except AgentStartError as err:
            runtime.start_task = None
            if runtime.stop_after_start or runtime.removed:
                self._set_state(runtime, "stopped")
            else:
                runtime.error = err.reason
                self._set_state(runtime, "error")
            raise
        except BaseException:  # cancelled by Stop (or the app closing): the handshake ends now
            runtime.start_task = None
            runtime.conn, runtime.users = None, 0
            if conn is not None:
                await conn.stop(0.0, 0.0)  # nothing to be polite to yet: TERM, then KILL
            self._set_state(runtime, "stopped")
            raise
        runtime.last_used = self.tuning.clock()
        runtime.start_task = None
        if runtime.stop_after_start or runtime.removed:
            await self._stop_running(runtime)
            raise AgentStartError(_("the agent was stopped while it was starting"))
        self._set_state(runtime, "busy" if runtime.users else "ready")
        return conn

    def note(self, runtime: AgentRuntime, line: str) -> None:
        """Sidekicks' own line in the agent's log (kept for Logs, streamed as `agent:log`)."""
        runtime.logs.append(line)
        self._bus.emit(names.AGENT_LOG, AgentLog(agent=runtime.name, line=line))

    def _failed(self, runtime: AgentRuntime, conn: AgentConnection, reason: Text) -> None:
        """The agent exited by itself or its connection was lost: `error`, with the reason and
        its last stderr lines, and what is left of it stopped (a process that no longer talks,
        or the children of one that exited)."""
        if runtime.conn is not conn:
            return  # an old process of this agent, already replaced
        runtime.conn, runtime.users = None, 0
        runtime.error = with_stderr(reason, conn.stderr_tail())
        self._set_state(runtime, "error")
        self._stops.start(conn.stop(self.tuning.stdin_grace, self.tuning.term_grace))

    async def stop(self, name: str) -> None:
        runtime = self.runtime(name)
        await self._stop(runtime)

    async def _stop(self, runtime: AgentRuntime) -> None:
        if runtime.start_task is not None:
            # Ends the handshake at once (its process killed) rather than waiting up to the
            # initialize timeout; a start that is finishing anyway is then stopped by its flag.
            runtime.stop_after_start = True
            task = runtime.start_task
            task.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(task)
            return
        if runtime.state in ("ready", "busy"):
            await self._stop_running(runtime)
        elif runtime.state == "error":
            runtime.error = ""
            self._set_state(runtime, "stopped")

    async def _stop_running(self, runtime: AgentRuntime) -> None:
        conn = runtime.conn
        runtime.conn, runtime.users = None, 0
        if conn is not None:
            await conn.stop(self.tuning.stdin_grace, self.tuning.term_grace)
        runtime.error = ""
        self._set_state(runtime, "stopped")

    async def restart(self, name: str) -> AgentConnection:
        await self.stop(name)
        return await self.start(name)

    async def stop_all(self) -> None:
        """Stops every agent in parallel (closing the app takes at most ~8 s, not 8 s each)."""
        self.idle.end()
        runtimes = [r for r in self._agents.values() if r.running]
        await asyncio.gather(*(self._stop(r) for r in runtimes), return_exceptions=True)
        await self._stops.wait()

    # ---- use by conversations ----------------------------------------------------------------

    async def acquire(self, name: str) -> AgentConnection:
        """Marks the agent in use (busy), starting it first if needed."""
        runtime = self.runtime(name)
        runtime.users += 1
        try:
            conn = await self.start(name)
        except BaseException:
            runtime.users = max(0, runtime.users - 1)
            raise
        runtime.last_used = self.tuning.clock()
        if runtime.state == "ready":
            self._set_state(runtime, "busy")
        return conn

    def release(self, name: str) -> None:
        runtime = self._agents.get(name)
        if runtime is None:
            return
        runtime.users = max(0, runtime.users - 1)
        runtime.last_used = self.tuning.clock()
        if runtime.users == 0 and runtime.state == "busy":
            self._set_state(runtime, "ready")

    # ---- limits (idle stops: app/agents/idle.py) -------------------------------------------------

    async def _make_room(self, starting: AgentRuntime) -> None:
        limit = self._config.limits.max_running_agents
        agents = lambda: list(self._agents.values())  # noqa: E731
        await make_room(agents, starting, limit, self._stop_running, self.evictions.said)

    # ---- events ------------------------------------------------------------------------------

    def _set_state(self, runtime: AgentRuntime, state: AgentState) -> None:
        if runtime.removed and state != "stopped":
            return
        runtime.state = state
        self._emit_state(runtime)

    def announce(self, runtime: AgentRuntime) -> None:
        """`agent:state` for a change of what AgentInfo shows (sign-in), the state unchanged."""
        self._emit_state(runtime)

    def _emit_state(self, runtime: AgentRuntime) -> None:
        error = str(runtime.error) or None  # a Text: in the language current now
        self._bus.emit(
            names.AGENT_STATE,
            AgentStateChanged(agent=runtime.name, state=runtime.state, error=error),
        )
