"""AgentService (SPEC §3), as the page calls it: the SPEC's methods, the agent's own
sessions (`Sessions`, issue 26), and the gallery's catalog with Add and Remove (issue 27; the
gallery itself is app/agents/gallery/). Signing in is SignInService's (sign_in_service.py)."""

from __future__ import annotations

from app.acp.errors import describe_error
from app.agents.gallery.gallery import Gallery
from app.agents.supervisor import Supervisor
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.agent_sessions import AgentSession
from app.models.agents import AgentInfo
from app.models.gallery import CatalogEntry

# A start waits for the handshake (30 s at most) and may first stop an idle agent (8 s at most).
START_TIMEOUT = 45.0
STOP_TIMEOUT = 15.0
LIST_TIMEOUT = START_TIMEOUT + 60.0  # a start, then up to 20 pages of `session/list`
CATALOG_TIMEOUT = 15.0  # the programs on PATH answer `--version` within 2 s each, in parallel
ADD_TIMEOUT = 30.0  # checked and saved as a Save is, then applied


class AgentService:
    def __init__(self, supervisor: Supervisor, core: LoopThread, gallery: Gallery) -> None:
        self._supervisor = supervisor
        self._core = core
        self._gallery = gallery

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

    @exposed
    def Catalog(self) -> list[CatalogEntry]:
        """Extension (issue 27): the agents one may add: the ACP Registry's (as fetched, cached,
        or the built-in short list when offline) and the ACP programs found on PATH, the
        well-known ones first, each with what it still needs and the agents already running it."""
        return self._core.run(self._gallery.catalog(), timeout=CATALOG_TIMEOUT)

    @exposed
    def Add(self, id: str, name: str, cwd: str) -> AgentInfo:
        """Extension (issue 27): writes catalog entry `id` into the YAML as a new agent (its
        comments and order kept), checked like a Save; `name` "" picks a unique one, `cwd` ""
        leaves the folder out (home). Returns the new agent."""
        return self._core.run(self._gallery.add(id, name, cwd), timeout=ADD_TIMEOUT)

    @exposed
    def Remove(self, name: str) -> None:
        """Extension (issue 27): removes the agent from the YAML (its comments go with it)."""
        require_name(name)
        self._core.run(self._gallery.remove(name), timeout=ADD_TIMEOUT)

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
