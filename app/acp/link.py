"""The SDK connection to one agent while it lasts (app/acp/connection.py owns one per start).

Every request has our timeout (None: as long as the connection lasts) and our errors, and fails
with ConnectionError once the connection has ended: the process exited, or the SDK stopped
reading what the agent writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import acp

from app.acp.cancel_request import Cancels, sending
from app.acp.errors import AgentRequestError
from app.i18n import N_, _
from app.i18n.text import Text, lazy

log = logging.getLogger(__name__)
T = TypeVar("T")

EXIT_GRACE = 1.0  # stdout closed: how long the process has to exit before it counts as lost


class Link:
    def __init__(self, conn: acp.ClientSideConnection, cancels: Cancels | None = None) -> None:
        self.conn = conn
        self._cancels = cancels  # tells the agent of the requests we give up on
        self._ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @property
    def open(self) -> bool:
        return not self._ended.done()

    def end(self) -> bool:
        """Ends the connection: pending and later requests fail with ConnectionError. False if
        it had already ended (the loss or the exit is reported once)."""
        if self._ended.done():
            return False
        self._ended.set_result(None)
        return True

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.conn.close()

    def receive_task(self) -> asyncio.Future[Any]:
        """The SDK's receive loop (a private attribute of the pinned SDK: when it ends, nothing
        the agent writes is read any more)."""
        task = getattr(getattr(self.conn, "_conn", None), "_recv_task", None)
        if isinstance(task, asyncio.Future):
            return task
        log.warning("the ACP SDK has no receive task to watch: a lost connection goes unseen")
        return asyncio.get_running_loop().create_future()  # never done

    async def request(self, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """A request to the agent, with its timeout (None: as long as the connection lasts),
        whose errors are ours: AgentRequestError, ConnectionError, or a TimeoutError that says
        how long. It never outlives the connection, even when the SDK lost track of its answer
        (a malformed answer kills the SDK's receive loop after it forgot the request)."""
        with sending() as sent:  # the ids the SDK gives the request (app/acp/cancel_request.py)
            request = asyncio.ensure_future(awaitable)
        ended: asyncio.Future[Any] = self._ended
        try:
            done, _pending = await asyncio.wait(
                {request, ended}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if not request.done():
                request.cancel()
                if self._cancels is not None and not self._ended.done():
                    self._cancels.give_up(sent)  # `$/cancel_request`: a timeout, or abandoned
        if request in done:
            try:
                return request.result()
            except acp.RequestError as err:
                raise typed_error(err) from None
        if self._ended.done():
            raise ConnectionError("the connection to the agent ended")
        raise TimeoutError(
            _("the agent did not answer within {seconds} s").format(seconds=f"{timeout:g}")
        )


def lost_reason(receiving: asyncio.Future[Any]) -> Text:
    error = None if receiving.cancelled() else receiving.exception()
    if error is None:
        return lazy(N_("the agent closed its output but kept running"))
    return lazy(
        N_("the connection to the agent failed ({error})"),
        error=f"{type(error).__name__}: {error}",
    )


def typed_error(err: BaseException) -> BaseException:
    """The SDK's JSON-RPC error as ours (errors are classified by type past app/acp)."""
    if isinstance(err, acp.RequestError):
        return AgentRequestError(err.code, str(err), err.data)
    return err
