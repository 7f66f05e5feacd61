"""A sub-agent's session is routed to the session that announced it (`subagent_update`): its
updates reach the parent's handler as ChildEvents, its permission requests are asked there, and
it goes with its parent."""

from __future__ import annotations

import asyncio
from typing import Any

from acp.schema import SessionNotification

from app.acp.client import SidekicksClient
from app.acp.stream_extensions import incoming
from app.acp.updates import ChildEvent, PermissionAsked, SessionEvent, SubagentChanged, TextDelta


class Handler:
    def __init__(self) -> None:
        self.events: list[SessionEvent | PermissionAsked] = []

    def on_event(self, event: SessionEvent | PermissionAsked) -> None:
        self.events.append(event)


def sdk_update(session_id: str, update: dict[str, Any]) -> Any:
    message = incoming({"method": "session/update",
                        "params": {"sessionId": session_id, "update": update}})  # fmt: skip
    return SessionNotification.model_validate(message["params"]).update


def chunk(text: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}


ANNOUNCE = {"sessionUpdate": "subagent_update", "sessionId": "kid", "state": {"state": "running"}}


def test_a_sub_agents_updates_reach_its_parent_and_go_with_it() -> None:
    async def run() -> None:
        client, parent = SidekicksClient(), Handler()
        client.attach("p", parent)
        await client.session_update("kid", sdk_update("kid", chunk("early")))  # before its news
        await client.session_update("p", sdk_update("p", ANNOUNCE))
        await client.session_update("kid", sdk_update("kid", chunk("later")))
        assert parent.events == [
            SubagentChanged("kid", state="running"),
            ChildEvent("kid", TextDelta("text", "early")),
            ChildEvent("kid", TextDelta("text", "later")),
        ]
        assert client.children("p") == ["kid"]
        assert client.cancellable("p") == []  # it did not say it takes session/cancel
        cancel = {**ANNOUNCE, "capabilities": {"cancel": {}}}
        await client.session_update("p", sdk_update("p", cancel))
        assert client.cancellable("p") == ["kid"]
        client.detach("p")
        assert client.children("p") == []
        await client.session_update("kid", sdk_update("kid", chunk("orphan")))
        assert len(parent.events) == 4
        assert client.buffered() == {"kid": 1}  # nobody's: kept within bounds, as before

    asyncio.run(run())


def test_a_sub_agents_own_sub_agent_is_shown_beside_it() -> None:
    async def run() -> None:
        client, parent = SidekicksClient(), Handler()
        client.attach("p", parent)
        await client.session_update("p", sdk_update("p", ANNOUNCE))
        grandchild = {**ANNOUNCE, "sessionId": "grandkid"}
        await client.session_update("kid", sdk_update("kid", grandchild))
        await client.session_update("grandkid", sdk_update("grandkid", chunk("deep")))
        assert parent.events[1:] == [
            SubagentChanged("grandkid", state="running"),
            ChildEvent("grandkid", TextDelta("text", "deep")),
        ]
        assert sorted(client.children("p")) == ["grandkid", "kid"]

    asyncio.run(run())


def test_a_sub_agents_permission_request_is_asked_in_its_parent() -> None:
    from acp.schema import PermissionOption, ToolCallUpdate

    async def run() -> None:
        client, parent = SidekicksClient(), Handler()
        client.attach("p", parent)
        await client.session_update("p", sdk_update("p", ANNOUNCE))
        asking = asyncio.ensure_future(
            client.request_permission(
                "kid",
                ToolCallUpdate(tool_call_id="t", title="Edit"),
                [PermissionOption(option_id="ok", name="OK", kind="allow_once")],
            )
        )
        while not any(isinstance(e, PermissionAsked) for e in parent.events):
            await asyncio.sleep(0)
        asked = next(e for e in parent.events if isinstance(e, PermissionAsked))
        asked.reply.set_result("ok")
        answer = await asyncio.wait_for(asking, 5)
        assert answer.outcome.outcome == "selected"

    asyncio.run(run())


def test_a_sub_agents_question_is_asked_in_the_session_that_shows_it() -> None:
    from acp.schema import ElicitationUrlSessionMode

    from app.acp.elicitation import ElicitationAsked, ElicitationReply

    async def run() -> None:
        client, parent = SidekicksClient(), Handler()
        client.attach("p", parent)
        await client.session_update("p", sdk_update("p", ANNOUNCE))
        mode = ElicitationUrlSessionMode(
            mode="url", session_id="kid", elicitation_id="e1", url="https://example.com/sign"
        )
        asking = asyncio.ensure_future(client.create_elicitation("Sign in, please", mode))
        for _turn in range(1000):  # the handler is called on this loop's next turns
            if any(isinstance(e, ElicitationAsked) for e in parent.events) or asking.done():
                break
            await asyncio.sleep(0)
        [asked] = [e for e in parent.events if isinstance(e, ElicitationAsked)]
        assert (asked.message, asked.url) == ("Sign in, please", "https://example.com/sign")
        asked.reply.set_result(ElicitationReply("decline"))
        answer = await asyncio.wait_for(asking, 5)
        assert answer.action == "decline"

    asyncio.run(run())
