"""Turns: a channel answers one user message at a time (its worker). The message's recipients
answer one after the other, each holding its agent's lock, since an agent answers one channel at
a time. Messages sent meanwhile wait, `queued`, and go out in order. Stop cancels the message's
scope: the agent due, the queue and the permission requests go; the answer in progress is asked
to stop, and left behind if the agent ignores that for too long. Each agent's answer itself is
answering.py's.

A message can be sent again (issue 17, resending.py): a user message as it was, and for a
retried answer the message it answered, for that agent alone (its routing is forced, for that
one message, on the run-time state: `_for_agent`). The queued messages Stop drops are kept here
(not in history) so that they can be resent.

Hand-offs (issue 28, app/channels/handoffs/): once the recipients of the person's message have
answered, the members their answers mention answer in turn, each hop told its place in the
chain; Stop drops the rest, Continue (past the budget) starts the worker on the held ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.agents.supervisor import Supervisor
from app.channels.answering import Answering
from app.channels.handoffs.chain import HandoffChain, Hop
from app.channels.membership import Membership
from app.channels.permissions import PermissionBroker
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.channels.resending import DroppedMessages, Resending
from app.channels.routing import Route, only, route
from app.channels.state import CancelScope, ChannelState
from app.channels.terminal_hub import TerminalHub
from app.core.errors import UserError
from app.core.text import valid_text
from app.history.failures import failure_reason
from app.i18n import _
from app.models.conversation import Attachment, Message, Part

log = logging.getLogger(__name__)

CANCEL_GRACE = 10.0  # an agent that ignores session/cancel is left behind after this long
STOP_GRACE = 2.0  # the same when the channel is deleted or the app closes


class Turns:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        permissions: PermissionBroker,
        membership: Membership,
        answering: Answering,
        supervisor: Supervisor,
        terminals: TerminalHub,
        handoffs: HandoffChain | None = None,
    ) -> None:
        self._handoffs = handoffs  # agents' answers that mention other members
        self._registry = registry
        self._publisher = publisher
        self._permissions = permissions
        self._membership = membership
        self._answering = answering
        self._supervisor = supervisor
        self._terminals = terminals  # agents' commands: killed by Stop, closed with the channel
        self._agent_locks: dict[str, asyncio.Lock] = {}
        self._for_agent: dict[str, str] = {}  # message id → the one agent that answers it
        self._dropped = DroppedMessages()

    def agent_lock(self, agent: str) -> asyncio.Lock:
        return self._agent_locks.setdefault(agent, asyncio.Lock())

    # ---- sending -----------------------------------------------------------------------------

    def send(
        self, state: ChannelState, text: str, attachments: list[Attachment] | None = None
    ) -> str:
        if not text.strip() and not attachments:  # files alone are a message
            raise UserError(_("the message is empty"))
        text = valid_text(text)  # a paste may carry half a character (a lone UTF-16 half)
        message = new_message(
            state.id, "user", parts=[Part(kind="text", text=text)], attachments=attachments or []
        )
        return self._submit(state, message)

    def resend(self, state: ChannelState, message_id: str, kept: Resending | None = None) -> str:
        """Sends a message again as a new one (see resending.py): one Stop dropped, one still
        queued, or `kept` (what history holds, looked up off the loop); its id. "" when the
        message is none of these and history was not looked up yet."""
        again = self._dropped.get(state.id, message_id) or self._waiting(state, message_id) or kept
        if again is None:
            return ""
        if again.agent and again.agent not in state.channel.members:
            raise UserError(_("{agent} is not a member of this channel").format(agent=again.agent))
        message = new_message(
            state.id,
            "user",
            parts=[Part(kind="text", text=_text_of(again.message))],
            attachments=[a.model_copy() for a in again.message.attachments],
        )
        if again.agent:
            self._for_agent[message.id] = again.agent
        try:
            sent = self._submit(state, message)
        except Exception:
            self._for_agent.pop(message.id, None)
            raise
        self._dropped.discard(state.id, message_id)
        return sent

    def _waiting(self, state: ChannelState, message_id: str) -> Resending | None:
        """A message still queued here (sent again as it is); the answer being written is not
        one to retry yet."""
        turn = state.turn
        if turn is not None and turn.answer.message.id == message_id:
            raise UserError(_("this answer is not finished: retry it once it has ended"))
        queued = next((m for m in state.queue_view() if m.id == message_id), None)
        return Resending(queued, self._for_agent.get(queued.id, "")) if queued else None

    def _submit(self, state: ChannelState, message: Message) -> str:
        if state.busy:
            message.queued = True
            state.queue.append(message)
            self._publisher.message(message)
            self._publisher.turn(state)
            return message.id
        # Refused when it cannot be kept: nothing is shown nor queued, and the page gives the
        # text back to send again (the error says why, e.g. the disk is full).
        try:
            self._registry.keep(message)
        except Exception as err:
            log.warning("could not keep a message in history", exc_info=True)
            raise UserError(_not_sent(err)) from err
        self._publisher.message(message)
        state.queue.append(message)
        state.worker = asyncio.get_running_loop().create_task(self._work(state))
        return message.id

    def run_handoffs(self, state: ChannelState) -> None:
        """Continue: the hand-offs now due are answered (by the worker under way, if any)."""
        if not state.busy:
            state.worker = asyncio.get_running_loop().create_task(self._work(state, True))

    async def _work(self, state: ChannelState, handoffs_first: bool = False) -> None:
        self._publisher.turn(state)
        try:
            if handoffs_first:
                state.scope = CancelScope()
                await self._hand_off(state)
            while state.queue:
                message = state.queue.pop(0)
                if message.queued and not self._keep_queued(message):
                    self._for_agent.pop(message.id, None)
                    continue  # shown with why it was not sent; the next one goes on
                state.scope = CancelScope()
                try:
                    await self._answer_message(state, message)
                except Exception:
                    log.exception("answering a message failed")
        finally:
            state.answering, state.due = "", []
            state.worker = None
            self._publisher.turn(state)

    def _keep_queued(self, message: Message) -> bool:
        """Keeps a message that waited in the queue, now that its turn came; one that cannot
        be kept is not answered, and shows the reason."""
        message.queued = False
        try:
            self._registry.keep(message)
        except Exception as err:
            log.warning("could not keep a queued message in history", exc_info=True)
            message.error = _not_sent(err)
            self._publisher.message(message)
            return False
        self._publisher.message(message)
        return True

    async def _answer_message(self, state: ChannelState, message: Message) -> None:
        if self._handoffs is not None:
            self._handoffs.begin(state)  # each message of the person has the whole budget
        members = list(state.channel.members)
        decided = route(
            message.parts[0].text,
            configured=self._supervisor.names(),
            members=members,
            direct=state.channel.direct,
            last_responder=state.stored.last_responder,
        )
        if agent := self._for_agent.pop(message.id, ""):
            decided = only(decided, agent, members)
        if decided.no_recipient:
            self._publisher.system(state, "no-recipient", "")
            return
        for agent in decided.joining:
            if agent not in state.channel.members:
                self._membership.join(state, agent)
        state.due = list(decided.recipients)
        while state.due and not state.scope.cancelled:
            agent = state.due.pop(0)
            await self._agent_turn(state, agent, decided, message)
        await self._hand_off(state)

    async def _hand_off(self, state: ChannelState) -> None:
        """The hand-offs due, one after the other, as long as nobody stops them."""
        chain = self._handoffs
        while chain is not None and not state.scope.cancelled:
            hop = chain.next_hop(state)
            if hop is None:
                return
            state.handoff = hop.handoff  # the turn line says whose hand-off it is
            try:
                await self._agent_turn(state, hop.to, hop.route(), hop.answer, hop)
            finally:
                state.handoff = None

    async def _agent_turn(
        self,
        state: ChannelState,
        agent: str,
        decided: Route,
        message: Message,
        hop: Hop | None = None,
    ) -> None:
        lock = self.agent_lock(agent)
        state.answering = agent
        self._publisher.turn(state)  # whose turn it is, even while waiting for another channel
        if not await _take_turn(state.scope, lock):
            return
        try:
            if agent not in state.channel.members:
                return
            try:
                conn = await self._supervisor.acquire(agent)
            except UserError as err:
                self._publisher.system(state, "agent-unavailable", agent, str(err))
                return
            handoff, extra = None, []
            if hop is not None and self._handoffs is not None:
                handoff, extra = hop.handoff, self._handoffs.blocks(state, hop)
            try:
                answer = await self._answering.answer(
                    state, agent, conn, decided, message, handoff, extra
                )
            finally:
                self._supervisor.release(agent)
            if self._handoffs is not None:
                self._handoffs.answered(state, answer)
        finally:
            lock.release()

    # ---- stopping ----------------------------------------------------------------------------

    async def cancel(self, state: ChannelState) -> None:
        dropped = _not_reached(state)
        state.scope.cancel()
        state.due = []
        if dropped:  # kept in the conversation: who will not answer the message (issue 29)
            self._publisher.system(state, "recipients-dropped", "", dropped=dropped)
        if self._handoffs is not None:
            self._handoffs.stop(state)  # the chain ends, and says whom it did not reach
        for message in state.queue_view():  # dropped, and not kept in history (kept here)
            message.queued = False
            message.error = "cancelled"
            self._publisher.message(message)
            self._dropped.add(state.id, Resending(message, self._for_agent.pop(message.id, "")))
        state.queue = []
        self._publisher.permissions_resolved(state, self._permissions.cancel(state.id))
        await asyncio.gather(self.cancel_answer(state), self._terminals.kill_channel(state.id))
        self._publisher.turn(state)

    async def cancel_answer(self, state: ChannelState) -> None:
        """Asks the agent to stop the answer in progress; leaves it behind after a grace."""
        turn = state.turn
        if turn is None:
            return
        await turn.conn.cancel(turn.session_id)
        asyncio.get_running_loop().call_later(CANCEL_GRACE, state.scope.abandon)

    async def stop_channel(self, state: ChannelState) -> None:
        """Cancels everything and waits (briefly) for the worker: the channel is deleted or the
        app closes, so an interrupted answer is not kept."""
        state.closing = True
        await self.cancel(state)
        self._dropped.forget(state.id)  # nothing of a deleted channel, or a closed history
        await self._terminals.close_channel(state.id)
        worker = state.worker
        if worker is None:
            return
        await asyncio.wait({worker}, timeout=STOP_GRACE)
        if not worker.done():
            state.scope.abandon()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(worker), CANCEL_GRACE)


def _not_reached(state: ChannelState) -> list[str]:
    """The recipients of the message being answered that Stop leaves without answering it: the
    ones due, and the one whose turn it is if its answer has not begun (it waits for the agent,
    busy elsewhere, or for its start). A hand-off's are the chain's to say (handoffs/)."""
    if state.handoff is not None:
        return []
    waiting = [state.answering] if state.answering and state.turn is None else []
    return list(dict.fromkeys([*waiting, *state.due]))


def _text_of(message: Message) -> str:
    return "".join(part.text for part in message.parts if part.kind == "text")


def _not_sent(err: Exception) -> str:
    return _("this message could not be saved, so it was not sent: {reason}").format(
        reason=failure_reason(err)
    )


async def _take_turn(scope: CancelScope, lock: asyncio.Lock) -> bool:
    """Waits for the agent (busy in another channel) unless the message is cancelled."""
    if scope.cancelled:
        return False
    acquire = asyncio.ensure_future(lock.acquire())
    cancelled = asyncio.ensure_future(scope.wait_cancelled())
    await asyncio.wait({acquire, cancelled}, return_when=asyncio.FIRST_COMPLETED)
    cancelled.cancel()
    if acquire.done() and not acquire.cancelled():
        if not scope.cancelled:
            return True
        lock.release()  # got it just as the message was cancelled: give it back
        return False
    acquire.cancel()
    return False
