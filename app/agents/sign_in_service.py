"""SignInService (extension, issue 14): signing in to an agent and out again, and the terminals
of `terminal` sign-in methods, as the page calls them. The methods themselves are sign_in.py's;
the terminals, sign_in_terminals.py's."""

from __future__ import annotations

from app.agents.service import START_TIMEOUT, STOP_TIMEOUT, require_name
from app.agents.sign_in import SignIns
from app.agents.sign_in_terminals import SignInTerminals
from app.agents.supervisor import Supervisor
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.events.bus import EventBus
from app.i18n import _
from app.models.agents import AgentInfo, SignInTerminalInfo

# An agent's own sign-in may open a browser and wait for the person there.
SIGN_IN_TIMEOUT = START_TIMEOUT + 300.0


class SignInService:
    def __init__(
        self, supervisor: Supervisor, core: LoopThread, terminals: SignInTerminals, bus: EventBus
    ) -> None:
        self._supervisor = supervisor
        self._core = core
        self._sign_ins = SignIns(supervisor, bus)
        self._terminals = terminals

    @exposed
    def SignIn(self, name: str, methodId: str, values: dict[str, str]) -> AgentInfo:
        """Signs in to the agent with one of its methods (starting it if needed): `agent` ones
        by ACP `authenticate`; `env_var` ones with `values` (every variable of the method),
        saved in the keychain (or an owner-only file) and given to the agent at each start.
        `terminal` ones use SignInTerminal. The agent's info, or its error."""
        require_name(name)
        if not methodId:
            raise UserError(_("a sign-in method is required"))
        self._core.run(self._sign_ins.sign_in(name, methodId, values), timeout=SIGN_IN_TIMEOUT)
        return self._core.call(lambda: self._supervisor.runtime(name).info())

    @exposed
    def SignInCode(self, name: str, code: str) -> None:
        """Extension: the code an `agent` method's sign-in asked for (`signin:prompt` with
        `asksCode`), written on the agent's stdin where it waits for it (gemini's "Enter the
        authorization code"). SignIn then answers whether it worked."""
        require_name(name)
        self._core.run(self._sign_ins.code(name, code), timeout=STOP_TIMEOUT)

    @exposed
    def CancelSignIn(self, name: str) -> None:
        """Extension: gives up the agent's `agent` method sign-in under way (SignIn then fails
        with "the sign-in was cancelled") and restarts the agent, which may still be waiting
        for a code. Nothing under way: nothing happens."""
        require_name(name)
        self._core.run(self._sign_ins.cancel(name), timeout=START_TIMEOUT + STOP_TIMEOUT)

    @exposed
    def SignOut(self, name: str) -> AgentInfo:
        """Extension: forgets the values saved for the agent's `env_var` methods (keychain or
        file) and restarts it without them if it runs."""
        require_name(name)
        self._core.run(self._sign_ins.sign_out(name), timeout=START_TIMEOUT + STOP_TIMEOUT)
        return self._core.call(lambda: self._supervisor.runtime(name).info())

    @exposed
    def SignInTerminal(self, name: str, methodId: str, cols: int, rows: int) -> SignInTerminalInfo:
        """Extension: runs a `terminal` sign-in method's command on a pseudo-terminal of
        `cols`×`rows`; when it exits the agent restarts to use the new credentials."""
        require_name(name)
        if not methodId:
            raise UserError(_("a sign-in method is required"))
        return self._core.run(
            self._terminals.open(name, methodId, cols, rows), timeout=START_TIMEOUT
        )

    @exposed
    def TerminalInput(self, terminal: str, data: str) -> None:
        """Extension: what the person typed in a sign-in terminal."""
        self._core.call(lambda: self._terminals.input(terminal, data))

    @exposed
    def TerminalResize(self, terminal: str, cols: int, rows: int) -> None:
        """Extension: the sign-in terminal's new size in characters."""
        self._core.call(lambda: self._terminals.resize(terminal, cols, rows))

    @exposed
    def TerminalClose(self, terminal: str) -> None:
        """Extension: ends a sign-in terminal (its command's process group is killed)."""
        self._core.run(self._terminals.close(terminal), timeout=STOP_TIMEOUT)
