"""A fork's member session, when it first opens (app/channels/forking.py): the source session
forked with ACP `session/fork`, or None for a new session given the copied messages instead.

It is forked only when the agent advertises `sessionCapabilities.fork` and the source session is
still as it was at the fork (same session, nothing newer seen, not answering): a session that
went on past the fork's message would bring the fork turns it does not have. A source deleted
since is still tried (the agent may keep the session; a failed fork starts anew)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.acp.updates import SessionSetup
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.history.base import PendingFork

if TYPE_CHECKING:
    from app.acp.client import SessionHandler
    from app.acp.connection import AgentConnection
    from app.acp.workspace import Workspace

log = logging.getLogger(__name__)


async def open_forked(
    registry: ChannelRegistry,
    state: ChannelState,
    agent: str,
    conn: AgentConnection,
    router: SessionHandler,
    workspace: Workspace | None,
) -> SessionSetup | None:
    """The forked session's setup, or None (the member then starts a new session, its context
    all the fork's messages). Either way the pending fork is done with."""
    member = state.member(agent)
    pending, member.fork = member.fork, None
    if pending is None:
        return None
    if conn.session_support.fork and _unchanged(registry, pending, agent):
        try:
            return await conn.own_sessions.fork(pending.session_id, router, workspace)
        except Exception as err:
            log.info("%s could not fork session %s: %s", agent, pending.session_id, err)
    member.last_seen, member.replay_own = "", True
    return None


def _unchanged(registry: ChannelRegistry, pending: PendingFork, agent: str) -> bool:
    source = registry.find(pending.channel)
    if source is None:
        return True
    was = source.stored.sessions.get(agent)
    return (
        was is not None
        and was.session_id == pending.session_id
        and was.last_seen == pending.seen
        and source.answering_agent(agent) is None
    )
