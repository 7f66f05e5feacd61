"""AgentService (SPEC §3), as the page calls it: the SPEC's methods. Signing in is
SignInService's (sign_in_service.py)."""

from __future__ import annotations

from app.agents.supervisor import Supervisor
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.agents import AgentInfo

# A start waits for the handshake (30 s at most) and may first stop an idle agent (8 s at most).
START_TIMEOUT = 45.0
STOP_TIMEOUT = 15.0


class AgentService:
    def __init__(self, supervisor: Supervisor, core: LoopThread) -> None:
        self._supervisor = supervisor
        self._core = core

    @exposed
    def List(self) -> list[AgentInfo]:
        """All agents, in configuration order."""
        return self._core.call(self._supervisor.infos)

    @exposed
    def Start(self, name: str) -> AgentInfo:
        """Starts the agent and waits until it is ready; its error otherwise."""
        require_name(name)
        self._core.run(self._supervisor.start(name), timeout=START_TIMEOUT)
        return self._core.call(lambda: self._supervisor.runtime(name).info())

    @exposed
    def Stop(self, name: str) -> AgentInfo:
        """Stops the agent (stdin closed, 5 s, SIGTERM, 3 s, SIGKILL)."""
        require_name(name)
        self._core.run(self._supervisor.stop(name), timeout=STOP_TIMEOUT)
        return self._core.call(lambda: self._supervisor.runtime(name).info())

    @exposed
    def Restart(self, name: str) -> AgentInfo:
        """Stops then starts the agent, applying a changed definition."""
        require_name(name)
        self._core.run(self._supervisor.restart(name), timeout=START_TIMEOUT + STOP_TIMEOUT)
        return self._core.call(lambda: self._supervisor.runtime(name).info())

    @exposed
    def Logs(self, name: str) -> list[str]:
        """The agent's last 200 stderr lines."""
        require_name(name)
        return self._core.call(lambda: self._supervisor.logs(name))


def require_name(name: str) -> None:
    """Refuses an empty agent name with a sentence (SignInService's too)."""
    if not name:
        raise UserError(_("an agent name is required"))
