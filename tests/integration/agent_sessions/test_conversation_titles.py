"""A direct conversation titled by the agent's session title (`session_info_update`, issue 28),
unless the person renamed it."""

from __future__ import annotations

from tests.integration.agent_sessions.conftest import Keeper
from tests.waiting import wait_for


def title_of(keeper: Keeper, channel_id: str) -> str:
    return next(c.title for c in keeper.channels.List() if c.id == channel_id)


def test_the_agents_session_title_names_the_conversation_until_the_person_does(
    keeper: Keeper,
) -> None:
    conversation = keeper.channels.NewConversation("keeper")
    mark = keeper.log.mark()
    keeper.channels.Send(conversation.id, "title Greetings")
    keeper.finished(conversation.id, "keeper", since=mark)
    wait_for(
        lambda: title_of(keeper, conversation.id) == "Greetings",
        what="the conversation titled by the agent",
    )
    assert next(c for c in keeper.channels.List() if c.id == conversation.id).name == ""

    keeper.channels.Rename(conversation.id, "Mine", "")
    mark = keeper.log.mark()
    keeper.channels.Send(conversation.id, "title Not yours")
    keeper.finished(conversation.id, "keeper", since=mark)  # the title came before the end
    assert title_of(keeper, conversation.id) == "Mine"
