"""AgentService (SPEC §3), as the page calls it: the SPEC's methods, and the agent's own
sessions (`Sessions`, issue 26). Signing in is SignInService's (sign_in_service.py)."""

from __future__ import annotations

from app.acp.errors import describe_error
from app.agents.supervisor import Supervisor
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.agent_sessions import AgentSession
from app.models.agents import AgentInfo

# A start waits for the handshake (30 s at most) and may first stop an idle agent (8 s at most).
START_TIMEOUT = 45.0
STOP_TIMEOUT = 15.0
LIST_TIMEOUT = START_TIMEOUT + 60.0  # a start, then up to 20 pages of `session/list`


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

    @exposed
    def Sessions(self, name: str) -> list[AgentSession]:
        """Extension (issue 26): the agent's own sessions in its folder (ACP `session/list`,
        every page), newest first as the agent gives them; the agent is started if needed.
        Refused when the agent does not list its sessions."""
        require_name(name)
        return self._core.run(self._sessions(name), timeout=LIST_TIMEOUT)

    async def _sessions(self, name: str) -> list[AgentSession]:
        conn = await self._supervisor.start(name)
        if not conn.session_support.list:
            raise UserError(_("{agent} does not list its sessions").format(agent=f"`{name}`"))
        try:
            found = await conn.own_sessions.list()
        except Exception as err:
            raise UserError(
                _("{agent} could not list its sessions: {error}").format(
                    agent=f"`{name}`", error=describe_error(err)
                )
            ) from None
        return [
            AgentSession(id=s.session_id, title=s.title, folder=s.cwd, updated_at=s.updated_at)
            for s in found
        ]


def require_name(name: str) -> None:
    """Refuses an empty agent name with a sentence (SignInService's too)."""
    if not name:
        raise UserError(_("an agent name is required"))
