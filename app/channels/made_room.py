"""Issue 29: an agent stopped to make room for another says so in its conversation. The line is
a `made-room` system message kept in history, posted in the agent's newest direct conversation
(the one its name opens in the sidebar); an agent without one gets the toast only."""

from __future__ import annotations

from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.models.conversation import MadeRoom


def post_made_room(
    registry: ChannelRegistry, publisher: Publisher, agent: str, for_agent: str, limit: int
) -> None:
    directs = [c for c in registry.channels() if c.direct == agent]
    if not directs:
        return
    newest = max(directs, key=lambda c: (c.last_activity or c.created_at, c.id))
    state = registry.find(newest.id)
    if state is None:
        return
    message = new_message(
        state.id,
        "system",
        agent=agent,
        code="made-room",
        made_room=MadeRoom(for_agent=for_agent, limit=limit),
    )
    if state.turn is not None:  # shown below the answer being streamed, so kept after it
        state.held.append(message)
    else:
        registry.keep(message)
    publisher.message(message)
