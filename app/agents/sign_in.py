"""Signing in to an agent with one of the methods it announced (ACP `authenticate`).

- `agent` methods: the agent signs in by itself (a browser login it opens): `authenticate`.
  What it prints on stdout for the person meanwhile (a web address, a prompt for a code: gemini
  without a browser) is watched (sign_in_prompts.py) and sent as `signin:prompt`; the code
  typed in the window goes to its stdin (`code`). `cancel` gives the request up
  (`$/cancel_request`) and restarts the agent: one waiting for a code on its stdin would
  otherwise never answer anything again.
- `env_var` methods: every variable needs a value. The values are saved (app/agents/credentials:
  the keychain, or an owner-only file), the agent restarts (or starts) with them in its
  environment, then `authenticate`; if that fails they are forgotten again and the agent's
  explanation is the error. At every later start the saved values are in the agent's
  environment — over the YAML `env:` for the same variable: the newer intent wins — and
  `authenticate` is called with their method right after the handshake (codex needs the call
  even with the key in its environment). Sign-out forgets them and restarts a running agent,
  after ACP `logout` when the agent advertises it (`auth.logout`).
- `terminal` methods: app/agents/sign_in_terminals.py.

The values never reach the YAML, the history, the agent's log, Python's logging or an error's
text: the agent's own explanations are passed through `redact` first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.acp.errors import describe_error
from app.agents.sign_in_prompts import PromptWatch
from app.core.errors import UserError
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import SignInPrompt
from app.i18n import _

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.acp.lines import TextListener
    from app.acp.updates import AuthMethod
    from app.agents.credentials.store import Credentials, Saved
    from app.agents.runtime import AgentRuntime
    from app.agents.supervisor import Supervisor

log = logging.getLogger(__name__)
HIDDEN = "••••"
MAX_CODE = 4096


@dataclass
class _Pending:
    """An `agent` method's `authenticate` under way."""

    conn: AgentConnection
    request: asyncio.Future[None]
    watch: PromptWatch = field(default_factory=PromptWatch)
    cancelled: bool = False


class SignIns:
    """What SignInService.SignIn, SignOut, SignInCode and CancelSignIn do, on the core loop."""

    def __init__(self, supervisor: Supervisor, bus: EventBus) -> None:
        self._supervisor, self._bus = supervisor, bus
        self._pending: dict[str, _Pending] = {}
        # A cancelled sign-in's restart of the agent, under way: a sign-in asked for meanwhile
        # waits for it (else it signed in the process that restart then replaced).
        self._restarting: dict[str, asyncio.Future[None]] = {}

    @property
    def _credentials(self) -> Credentials:
        return self._supervisor.credentials

    async def sign_in(self, name: str, method_id: str, values: dict[str, str]) -> None:
        while (restarting := self._restarting.get(name)) is not None:
            await asyncio.shield(restarting)  # the cancelled sign-in's restart ends first
        runtime = self._supervisor.runtime(name)
        methods = runtime.auth_methods or (await self._supervisor.start(name)).auth_methods
        method = find_method(methods, name, method_id)
        if method.type == "agent":
            await self._agent_method(name, method_id)
            return
        if method.type == "terminal":
            raise UserError(_("this sign-in method runs in a terminal (SignInTerminal)"))
        checked = checked_values(method, values)
        await asyncio.to_thread(self._credentials.save, name, method_id, checked)
        runtime.saved_method = method_id
        try:
            await self._supervisor.restart(name)
        except BaseException:
            await self._forget(name)
            raise
        failure = runtime.auth_failure
        if failure:
            await self._forget(name)
            await self._supervisor.restart(name)  # its environment no longer holds them
            raise UserError(
                _("signing in to {agent} failed: {error}").format(agent=f"`{name}`", error=failure)
            )

    async def _agent_method(self, name: str, method_id: str) -> None:
        if name in self._pending:
            raise UserError(
                _("a sign-in to {agent} is already under way").format(agent=f"`{name}`")
            )
        conn = await self._supervisor.start(name)
        pending: _Pending | None = None

        def on_text(text: str, complete: bool) -> None:
            assert pending is not None
            found = (
                pending.watch.feed(text + "\n", "") if complete else pending.watch.feed("", text)
            )
            if found is not None:
                prompt = SignInPrompt(agent=name, url=found.url, asks_code=found.asks_code)
                self._bus.emit(names.SIGN_IN_PROMPT, prompt)

        request = asyncio.ensure_future(authenticate(conn, name, method_id, on_text))
        pending = self._pending[name] = _Pending(conn, request)
        try:
            await request
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not pending.cancelled or (current is not None and current.cancelling()):
                raise
            raise UserError(_("the sign-in was cancelled")) from None
        finally:
            if self._pending.get(name) is pending:
                del self._pending[name]
            request.cancel()  # this caller was cancelled: the request is given up too

    async def code(self, name: str, code: str) -> None:
        """The code the person typed for a sign-in that asked for one, on the agent's stdin."""
        pending = self._pending.get(name)
        if pending is None or not pending.watch.found.asks_code:
            raise UserError(
                _("no sign-in to {agent} is waiting for a code").format(agent=f"`{name}`")
            )
        code = code.strip()
        if not code:
            raise UserError(_("type the code first"))
        if len(code) > MAX_CODE or any(ord(c) < 32 or ord(c) == 127 for c in code):
            raise UserError(_("a code must be a single line of text"))
        try:
            await pending.conn.write_line(code)
        except (ConnectionError, OSError):
            raise UserError(_("the agent stopped before it read the code")) from None

    async def cancel(self, name: str) -> None:
        """Gives up the sign-in under way (`$/cancel_request`) and restarts the agent, which may
        still wait for a code on its stdin. Nothing under way: nothing to do."""
        pending = self._pending.pop(name, None)
        if pending is None:
            return
        pending.cancelled = True
        pending.request.cancel()
        restarted = self._restarting[name] = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait({pending.request})  # given up: its `$/cancel_request` is sent
            runtime = self._supervisor.runtime(name)
            if runtime.conn is pending.conn and runtime.running:
                try:
                    await self._supervisor.restart(name)
                except UserError as err:  # its card says why
                    log.warning("%s did not restart after a cancelled sign-in: %s", name, err)
        finally:
            if self._restarting.get(name) is restarted:
                del self._restarting[name]
            restarted.set_result(None)

    async def sign_out(self, name: str) -> None:
        """ACP `logout` first when the running agent advertises `auth.logout` (it forgets its
        own sign-in: `agent` and `terminal` methods); then the saved values are forgotten and
        a running agent restarts without them. A stopped agent that advertised `logout` at its
        last start is started for it, then stopped again.
        A refused `logout` is the error, after the rest is done."""
        runtime = self._supervisor.runtime(name)
        failure = ""
        conn = runtime.conn if runtime.running else None
        started_for_logout = False
        if conn is None and runtime.logs_out:
            # Stopped, but it said at its last start that it logs out: started for that only
            # (its own sign-in, e.g. a ChatGPT login, would otherwise stay), then stopped.
            try:
                conn = await self._supervisor.start(name)
                started_for_logout = True
            except Exception as err:
                failure = describe_error(err)
        if conn is not None and conn.connected and conn.session_support.logout:
            try:
                await conn.own_sessions.logout()
            except Exception as err:
                failure = describe_error(err)
        await self._forget(name)
        if started_for_logout:
            await self._supervisor.stop(name)
        elif runtime.running:
            await self._supervisor.restart(name)
        else:
            self._supervisor.announce(runtime)
        if failure:
            raise UserError(
                _("signing out of {agent} failed: {error}").format(agent=f"`{name}`", error=failure)
            )

    async def _forget(self, name: str) -> None:
        await asyncio.to_thread(self._credentials.forget, name)
        self._supervisor.runtime(name).saved_method = None


def find_method(methods: Iterable[AuthMethod], name: str, method_id: str) -> AuthMethod:
    methods = tuple(methods)
    method = next((m for m in methods if m.id == method_id), None)
    if method is None:
        known = ", ".join(f"`{m.id}`" for m in methods) or "—"
        raise UserError(
            _("{agent} has no sign-in method {method} (its methods: {known})").format(
                agent=f"`{name}`", method=f"`{method_id}`", known=known
            )
        )
    return method


def checked_values(method: AuthMethod, values: dict[str, str]) -> dict[str, str]:
    """The method's variables with their values, or a UserError naming what is wrong (never a
    value)."""
    names = [v.name for v in method.vars]
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise UserError(
            _("{method} does not use {names}").format(
                method=f"`{method.id}`", names=", ".join(f"`{n}`" for n in unknown)
            )
        )
    cleaned = {n: (values.get(n) or "").strip() for n in names}
    missing = [n for n, value in cleaned.items() if not value]
    if missing:
        raise UserError(
            _("a value is needed for {names}").format(names=", ".join(f"`{n}`" for n in missing))
        )
    if any("\0" in value or "\n" in value for value in cleaned.values()):
        raise UserError(_("a value must be a single line of text"))
    return cleaned


async def authenticate(
    conn: AgentConnection, name: str, method_id: str, on_text: TextListener | None = None
) -> None:
    try:
        await conn.authenticate(method_id, on_text)
    except Exception as err:
        raise UserError(
            _("signing in to {agent} failed: {error}").format(
                agent=f"`{name}`", error=describe_error(err)
            )
        ) from None


async def load_saved(supervisor: Supervisor, runtime: AgentRuntime) -> Saved | None:
    """Before a start: the values saved for the agent; None (and why in its log) if unreadable."""
    runtime.auth_failure = ""
    try:
        saved = await asyncio.to_thread(supervisor.credentials.load, runtime.name)
    except Exception as err:  # a keychain's error text is not shown: it could quote a value
        why = str(err) if isinstance(err, UserError) else type(err).__name__
        supervisor.note(
            runtime, _("the saved sign-in values could not be read: {error}").format(error=why)
        )
        return None
    runtime.saved_method = saved.method if saved else None
    return saved


async def sign_in_saved(
    supervisor: Supervisor, runtime: AgentRuntime, conn: AgentConnection, saved: Saved
) -> None:
    """Right after the handshake: `authenticate` with the method whose values the agent was
    started with (unless it no longer offers it). A failure, without the values, is kept in
    `runtime.auth_failure`, said in the agent's log, and the agent needs a sign-in."""
    if saved.method not in {m.id for m in conn.auth_methods}:
        return
    try:
        timeout = supervisor.tuning.initialize_timeout
        await asyncio.wait_for(conn.authenticate(saved.method), timeout)
    except Exception as err:
        runtime.auth_failure = redact(describe_error(err), saved.values.values())
        supervisor.note(
            runtime,
            _("signing in with the saved values failed: {error}").format(
                error=runtime.auth_failure
            ),
        )
    runtime.needs_sign_in = bool(runtime.auth_failure)


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret value in it masked (an agent may quote the key it refused)."""
    for secret in secrets:
        if len(secret) >= 4:
            text = text.replace(secret, HIDDEN)
    return text
