"""`$/cancel_request` both ways: a transport between the SDK and our JSON lines.

The pinned SDK (0.12.1) neither sends nor honours `$/cancel_request`: remove this layer (or
shrink it to what the SDK lacks) when the SDK has it.

- **Ours, given up** (`give_up`): a request Sidekicks stops waiting for (its timeout passed, its
  caller went away — an abandoned prompt) is named to the agent in a `$/cancel_request`, so the
  agent can stop working on it. The SDK chooses request ids; `send` records each outgoing
  request's id in the `Sent` the caller holds (a context variable: the SDK sends from the
  request's own task, which copied it).
- **The agent's, withdrawn**: a `$/cancel_request` for a request the agent made of us (fs/*,
  terminal/*, session/request_permission, elicitation/create) still being handled is answered at
  once with JSON-RPC error -32800 ("request cancelled"); its handler is told (`on_cancel`) so a
  prompt leaves the page, and whatever the handler answers later is dropped. A cancel for a
  request already answered is ignored, as JSON-RPC wants. The notification never reaches the
  SDK (it knows no such method).

The agent's request being handled is known to its handler through `handling()`: the SDK's
receive loop hands each message over right after `receive` returns and starts its handler task
then, which copies the context `receive` set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

CANCEL_METHOD = "$/cancel_request"
REQUEST_CANCELLED = -32800  # JSON-RPC / ACP: the request was cancelled
RequestId = int | str


class Transport(Protocol):
    async def send(self, message: dict[str, Any]) -> None: ...

    async def receive(self) -> dict[str, Any] | None: ...

    async def close(self) -> None: ...


@dataclass
class Sent:
    """The ids of the requests sent from inside one `Link.request` (one, as a rule)."""

    ids: list[RequestId] = field(default_factory=list)
    session_id: str | None = None


_SENDING: ContextVar[Sent | None] = ContextVar("sidekicks_acp_sending", default=None)
_HANDLING: ContextVar[RequestId | None] = ContextVar("sidekicks_acp_handling", default=None)


@contextlib.contextmanager
def sending() -> Iterator[Sent]:
    """Within: requests the SDK sends from tasks started here are recorded in the `Sent`."""
    sent = Sent()
    token = _SENDING.set(sent)
    try:
        yield sent
    finally:
        _SENDING.reset(token)


def handling() -> RequestId | None:
    """The id of the agent's request this task handles (None outside a request handler)."""
    return _HANDLING.get()


class Cancels:
    """The transport the SDK is given; `inner` is the one that reads and writes the agent."""

    def __init__(self, inner: Transport) -> None:
        self._inner = inner
        self._theirs: set[RequestId] = set()  # the agent's requests not answered yet
        self._withdrawn: set[RequestId] = set()  # answered -32800; the handler's answer dropped
        self._on_cancel: dict[RequestId, Callable[[], object]] = {}
        self._ours: dict[RequestId, str | None] = {}  # our requests in flight → their session
        self._sending: set[asyncio.Future[None]] = set()

    # ---- the transport -----------------------------------------------------------------------

    async def send(self, message: dict[str, Any]) -> None:
        if "method" in message:
            if "id" in message:
                self._sent_request(message)
        elif "id" in message:  # our answer to one of the agent's requests
            request_id = message["id"]
            self._theirs.discard(request_id)
            self._on_cancel.pop(request_id, None)
            if request_id in self._withdrawn:
                self._withdrawn.discard(request_id)
                return  # answered -32800 already
        await self._inner.send(message)

    async def receive(self) -> dict[str, Any] | None:
        while True:
            message = await self._inner.receive()
            if message is None:
                return None
            method = message.get("method")
            if method == CANCEL_METHOD:
                self._cancelled_by_agent(message.get("params"))
                continue
            if method is not None and "id" in message and _is_id(message["id"]):
                self._theirs.add(message["id"])
                _HANDLING.set(message["id"])  # the handler task the SDK starts next copies it
            else:
                _HANDLING.set(None)
                if method is None and "id" in message:
                    self._ours.pop(message["id"], None)  # the agent answered one of ours
            return message

    async def close(self) -> None:
        for callback in list(self._on_cancel.values()):
            with contextlib.suppress(Exception):
                callback()
        self._on_cancel.clear()
        await self._inner.close()

    # ---- ours --------------------------------------------------------------------------------

    def _sent_request(self, message: dict[str, Any]) -> None:
        request_id = message["id"]
        params = message.get("params")
        session = params.get("sessionId") if isinstance(params, dict) else None
        self._ours[request_id] = session if isinstance(session, str) else None
        sent = _SENDING.get()
        if sent is not None:
            sent.ids.append(request_id)

    def session_of(self, request_id: RequestId | None) -> str | None:
        """The session of our request in flight `request_id` (what a request-scoped
        elicitation is about), if it names one."""
        return self._ours.get(request_id) if request_id is not None else None

    def give_up(self, sent: Sent) -> None:
        """Tells the agent Sidekicks no longer waits for these requests (sent in the
        background: the caller may be going away)."""
        for request_id in sent.ids:
            if self._ours.pop(request_id, False) is False:
                continue  # answered meanwhile
            self._background(
                {"jsonrpc": "2.0", "method": CANCEL_METHOD, "params": {"requestId": request_id}}
            )

    # ---- theirs ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def on_cancel(self, callback: Callable[[], object]) -> Iterator[None]:
        """Within: if the agent cancels the request this task handles, `callback` runs."""
        request_id = handling()
        if request_id is None:
            yield
            return
        self._on_cancel[request_id] = callback
        try:
            yield
        except asyncio.CancelledError:
            self._withdrawn.discard(request_id)  # the handler ends without an answer to drop
            raise
        finally:
            if self._on_cancel.get(request_id) is callback:
                del self._on_cancel[request_id]

    def _cancelled_by_agent(self, params: Any) -> None:
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if not _is_id(request_id) or request_id not in self._theirs:
            return  # unknown, or answered already: nothing to do
        assert request_id is not None
        self._theirs.discard(request_id)
        self._withdrawn.add(request_id)
        self._background(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": REQUEST_CANCELLED, "message": "Request cancelled"},
            }
        )
        callback = self._on_cancel.pop(request_id, None)
        if callback is not None:
            try:
                callback()
            except Exception:
                log.exception("withdrawing the agent's request %r failed", request_id)

    def _background(self, message: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self._send_quietly(message))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_quietly(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # the agent went away: nothing to tell it
            await self._inner.send(message)


def _is_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)
