"""SessionService (extension, issue 14): a member's session modes and options in a channel, as
the page calls it. The offers and choices themselves are session_settings.py's."""

from __future__ import annotations

from app.acp.errors import describe_error
from app.channels.parts import ChannelParts
from app.channels.state import LiveSession
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.sessions import MemberSession

# The member's session may need opening first: its agent started (30 s handshake) and
# `session/new` or `session/load` answered, as for ChannelService.Prepare.
SESSION_TIMEOUT = 180.0


class SessionService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core = core
        self._supervisor = parts.supervisor
        self._registry = parts.registry
        self._sessions = parts.sessions
        self._settings = parts.settings

    @exposed
    def SetMode(self, id: str, agent: str, modeId: str) -> MemberSession:
        """Extension: sets a member's session mode (`session/set_mode`), opening its session
        first if needed; the session as it is afterwards."""
        return self._core.run(self._set_mode(id, agent, modeId), timeout=SESSION_TIMEOUT)

    @exposed
    def SetOption(self, id: str, agent: str, optionId: str, value: str | bool) -> MemberSession:
        """Extension: sets one of a member's session options (`session/set_config_option`, or
        `session/set_model` for the models an agent offers the older way: the option `model`
        with `via` "set_model"); the session as it is afterwards."""
        return self._core.run(self._set_option(id, agent, optionId, value), timeout=SESSION_TIMEOUT)

    async def _set_mode(self, channel_id: str, agent: str, mode_id: str) -> MemberSession:
        return await self._settings.set_mode(await self._live(channel_id, agent), mode_id)

    async def _set_option(
        self, channel_id: str, agent: str, option_id: str, value: str | bool
    ) -> MemberSession:
        session = await self._live(channel_id, agent)
        return await self._settings.set_option(session, option_id, value)

    async def _live(self, channel_id: str, agent: str) -> LiveSession:
        """The member's open session, started and opened (like Prepare) if it is not."""
        state = self._registry.get(channel_id)
        if agent not in state.channel.members:
            raise UserError(_("{agent} is not a member of this channel").format(agent=agent))
        conn = await self._supervisor.start(agent)
        try:
            return await self._sessions.open(state, agent, conn)
        except Exception as err:
            raise UserError(describe_error(err)) from None
