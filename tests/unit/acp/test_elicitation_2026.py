"""At the typed boundary (issue 26): requestedSchema → form fields, the person's answer checked,
and `$/cancel_request` both ways through the real SDK connection (app/acp/cancel_request.py)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import acp
import pytest
from acp.schema import ElicitationFormSessionMode, ElicitationUrlSessionMode

from app.acp.cancel_request import REQUEST_CANCELLED, Cancels, handling, sending
from app.acp.client import SidekicksClient
from app.acp.elicitation import (
    ElicitationAsked,
    ElicitationReply,
    Unusable,
    check_content,
    elicitation_asked,
    sdk_response,
)


def form_mode(properties: dict[str, Any], required: list[str] | None = None) -> Any:
    return ElicitationFormSessionMode.model_validate(
        {"sessionId": "s", "requestedSchema": {"properties": properties, "required": required}}
    )


def asked(mode: Any) -> ElicitationAsked:
    return elicitation_asked("m", mode, cast(Any, None))  # the reply is only carried


def test_fields_keep_the_schemas_order_kinds_and_bounds() -> None:
    made = asked(
        form_mode(
            {
                "n": {"type": "number", "minimum": 0.5},
                "pick": {"type": "string", "enum": ["x", "y"], "default": "zz"},
                "many": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]},
                         "default": ["b", "nope"], "minItems": 1},
                "later": {"type": "x-future"},
            },
            ["n"],
        )
    )  # fmt: skip

    assert [(f.name, f.kind, f.required) for f in made.fields] == [
        ("n", "number", True),
        ("pick", "enum", False),
        ("many", "multiselect", False),
    ]
    assert made.fields[0].minimum == 0.5
    assert made.fields[1].default is None  # a default that is not a choice is dropped
    assert made.fields[2].default == ["b"] and made.fields[2].min_items == 1


def test_a_required_field_of_an_unknown_kind_or_a_non_web_address_is_unusable() -> None:
    with pytest.raises(Unusable):
        asked(form_mode({"later": {"type": "x-future"}}, ["later"]))
    for url in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi"):
        mode = ElicitationUrlSessionMode.model_validate(
            {"sessionId": "s", "elicitationId": "e", "url": url}
        )
        with pytest.raises(Unusable):
            asked(mode)


def test_content_is_checked_against_the_fields() -> None:
    fields = asked(
        form_mode(
            {
                "i": {"type": "integer", "maximum": 3},
                "b": {"type": "boolean"},
                "s": {"type": "string", "maxLength": 3},
                "m": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
            },
            ["i"],
        )
    ).fields

    assert check_content(fields, {"i": 3.0, "b": False, "s": "", "m": ["a"]}) == {
        "i": 3,
        "b": False,
        "m": ["a"],
    }
    for wrong in (
        {},
        {"i": True},
        {"i": float("nan")},
        {"i": 4},
        {"i": 1, "s": "long"},
        {"i": 1, "m": ["a", "a"]},
        {"i": 1, "m": "a"},
        {"i": 1, "b": 0},
    ):
        with pytest.raises(ValueError, match=r"must|required|takes|names"):
            check_content(fields, wrong)


def test_answers_in_the_sdks_terms() -> None:
    accept = sdk_response(ElicitationReply("accept", {"a": 1}))
    assert accept.model_dump(by_alias=True, exclude_none=True) == {
        "action": "accept",
        "content": {"a": 1},
    }
    assert sdk_response(ElicitationReply("decline")).action == "decline"
    assert sdk_response(ElicitationReply("cancel")).action == "cancel"


class Pipe:
    """The agent's side of a transport: what the client sends, what the agent writes."""

    def __init__(self) -> None:
        self.to_client: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.from_client: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(self, message: dict[str, Any]) -> None:
        await self.from_client.put(message)

    async def receive(self) -> dict[str, Any] | None:
        return await self.to_client.get()

    async def close(self) -> None:
        pass

    async def next_from_client(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.from_client.get(), 5)


class Handler:
    def __init__(self) -> None:
        self.events: list[Any] = []

    def on_event(self, event: Any) -> None:
        self.events.append(event)


async def connected() -> tuple[Pipe, Cancels, SidekicksClient, Handler, acp.ClientSideConnection]:
    pipe = Pipe()
    cancels = Cancels(pipe)
    client = SidekicksClient()
    client.cancels = cancels
    handler = Handler()
    client.attach("s1", handler)
    conn = acp.connect_to_agent(cast(acp.Client, client), cancels, use_unstable_protocol=True)
    return pipe, cancels, client, handler, conn


def form_request(request_id: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create",
            "params": {"sessionId": "s1", "mode": "form", "message": "Name?",
                       "requestedSchema": {"properties": {"n": {"type": "string"}}}}}  # fmt: skip


async def wait_until(condition: Any) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), 5)


def test_an_answered_elicitation_goes_back_through_the_sdk() -> None:
    async def run() -> None:
        pipe, _cancels, _client, handler, conn = await connected()
        await pipe.to_client.put(form_request(7))
        await wait_until(lambda: handler.events)
        [event] = handler.events
        event.reply.set_result(ElicitationReply("accept", {"n": "Ada"}))
        answer = await pipe.next_from_client()
        assert answer == {"jsonrpc": "2.0", "id": 7,
                          "result": {"action": "accept", "content": {"n": "Ada"}}}  # fmt: skip
        await conn.close()

    asyncio.run(run())


def test_the_agents_cancel_is_answered_minus_32800_once_and_the_handler_told() -> None:
    async def run() -> None:
        pipe, _cancels, _client, handler, conn = await connected()
        await pipe.to_client.put(form_request(8))
        await wait_until(lambda: handler.events)
        [event] = handler.events

        await pipe.to_client.put({"jsonrpc": "2.0", "method": "$/cancel_request",
                                  "params": {"requestId": 8}})  # fmt: skip
        answer = await pipe.next_from_client()
        assert answer["id"] == 8 and answer["error"]["code"] == REQUEST_CANCELLED
        await wait_until(lambda: event.reply.cancelled())  # the question leaves the page

        # A cancel of a request already answered (or never made) changes nothing.
        await pipe.to_client.put({"jsonrpc": "2.0", "method": "$/cancel_request",
                                  "params": {"requestId": 8}})  # fmt: skip
        await pipe.to_client.put({"jsonrpc": "2.0", "id": 9, "method": "fs/read_text_file",
                                  "params": {"sessionId": "s1", "path": "/x"}})  # fmt: skip
        nothing_but = await pipe.next_from_client()
        assert nothing_but["id"] == 9  # no second answer to 8 came first
        await conn.close()

    asyncio.run(run())


def test_a_withdrawn_requests_late_answer_is_dropped() -> None:
    async def run() -> None:
        pipe = Pipe()
        cancels = Cancels(pipe)
        await pipe.to_client.put({"jsonrpc": "2.0", "id": "r1", "method": "terminal/wait_for_exit",
                                  "params": {}})  # fmt: skip
        await cancels.receive()
        await pipe.to_client.put({"jsonrpc": "2.0", "method": "$/cancel_request",
                                  "params": {"requestId": "r1"}})  # fmt: skip
        await pipe.to_client.put({"jsonrpc": "2.0", "method": "session/update", "params": {}})
        assert (await cancels.receive())["method"] == "session/update"  # the cancel is ours
        assert (await pipe.next_from_client())["error"]["code"] == REQUEST_CANCELLED
        await cancels.send({"jsonrpc": "2.0", "id": "r1", "result": {"exitCode": 0}})
        assert pipe.from_client.empty()

    asyncio.run(run())


def test_the_handler_knows_which_request_it_handles() -> None:
    seen: list[Any] = []

    class Reader(SidekicksClient):
        async def read_text_file(self, session_id: str, path: str, **kwargs: Any) -> Any:
            seen.append(handling())
            return {"content": ""}

    async def run() -> None:
        pipe = Pipe()
        cancels = Cancels(pipe)
        conn = acp.connect_to_agent(cast(acp.Client, Reader()), cancels)
        for rid in (41, "forty-two"):
            await pipe.to_client.put({"jsonrpc": "2.0", "id": rid, "method": "fs/read_text_file",
                                      "params": {"sessionId": "s", "path": "/x"}})  # fmt: skip
            await pipe.next_from_client()
        await conn.close()

    asyncio.run(run())
    assert seen == [41, "forty-two"]


def test_a_request_given_up_on_is_named_in_a_cancel_request() -> None:
    async def run() -> None:
        pipe = Pipe()
        cancels = Cancels(pipe)
        conn = acp.connect_to_agent(cast(acp.Client, SidekicksClient()), cancels)
        with sending() as sent:
            prompt = asyncio.ensure_future(conn.prompt(session_id="s9", prompt=[]))
        asked = await pipe.next_from_client()
        assert sent.ids == [asked["id"]] and cancels.session_of(asked["id"]) == "s9"
        prompt.cancel()
        cancels.give_up(sent)
        assert await pipe.next_from_client() == {
            "jsonrpc": "2.0",
            "method": "$/cancel_request",
            "params": {"requestId": asked["id"]},
        }
        cancels.give_up(sent)  # once only
        await asyncio.sleep(0)
        assert pipe.from_client.empty()
        await conn.close()

    asyncio.run(run())
