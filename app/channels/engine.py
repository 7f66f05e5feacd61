"""The conversation engine (SPEC §4): channels, who answers, turns and queues, streaming,
permissions, cancel, sessions and history. Lives on the core loop; ChannelService calls it.

A channel answers one user message at a time (its worker): the message's recipients answer one
after the other, each holding its agent's lock, since an agent answers one channel at a time.
Messages sent meanwhile wait, `queued`, and go out in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.acp.errors import describe_error
from app.agents.supervisor import Supervisor
from app.channels.answer import Answer
from app.channels.context import CONTEXT_MESSAGES, build_prompt
from app.channels.reading import ChannelView, ConversationHead, no_channel
from app.channels.routing import Route, route
from app.channels.state import ChannelState, OpenSession, PendingPermission
from app.core.errors import UserError
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import (
    ChannelsChanged,
    CommandsChanged,
    MessageUpdated,
    PermissionRequested,
    PermissionResolved,
    TurnChanged,
    UsageChanged,
)
from app.history.base import History, StoredChannel
from app.history.memory import MemoryHistory
from app.i18n import _
from app.models.conversation import (
    Channel,
    Command,
    Message,
    Part,
    Role,
    SystemCode,
    ToolCall,
    Usage,
)
from app.models.conversation import PermissionOption as WireOption

if TYPE_CHECKING:
    from acp.schema import PermissionOption, RequestPermissionResponse, ToolCallUpdate

    from app.acp.connection import AgentConnection

log = logging.getLogger(__name__)

NAME_MAX = 64
CANCEL_GRACE = 10.0  # an agent that ignores session/cancel is left behind after this long
STOP_GRACE = 2.0  # the same when the channel is deleted or the app closes


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_message(channel_id: str, role: Role, **fields: Any) -> Message:
    """A message with a new time-sortable id, created now."""
    return Message(id=new_id(), channel=channel_id, created_at=now_iso(), role=role, **fields)


class SessionRouter:
    """The ACP session handler of one agent in one channel."""

    def __init__(self, engine: ChannelEngine, channel_id: str, agent: str) -> None:
        self._engine, self._channel_id, self._agent = engine, channel_id, agent
        self.loading = False  # session/load replays history: not a new answer

    def on_update(self, update: Any) -> None:
        self._engine.on_update(self._channel_id, self._agent, update, replay=self.loading)

    async def on_permission(
        self, tool_call: ToolCallUpdate, options: list[PermissionOption]
    ) -> RequestPermissionResponse:
        from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse

        choice = await self._engine.on_permission(self._channel_id, self._agent, tool_call, options)
        if choice is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=choice)
        )


class ChannelEngine:
    def __init__(self, bus: EventBus, supervisor: Supervisor) -> None:
        self._bus = bus
        self._supervisor = supervisor
        self._history: History = MemoryHistory()
        self._channels: dict[str, ChannelState] = {}
        self._agent_locks: dict[str, asyncio.Lock] = {}
        self._permissions: dict[str, PendingPermission] = {}
        self._commands: dict[str, list[Command]] = {}
        self._ignored_updates: set[str] = set()
        # Read from any thread (app/channels/reading.py): entries are replaced, never changed.
        self._views: dict[str, ChannelView] = {}

    # ---- history -----------------------------------------------------------------------------

    @property
    def history(self) -> History:
        return self._history

    def attach(self, history: History) -> None:
        self._history = history
        self._channels = {s.channel.id: ChannelState(s) for s in history.channels()}
        self._commands = {}
        self._emit_channels()

    async def detach(self) -> None:
        """Stops every answer (an answer in progress is not kept), then closes the history."""
        await asyncio.gather(*(self._stop_channel(s) for s in list(self._channels.values())))
        self._channels = {}
        self._views = {}
        self._history.close()
        self._history = MemoryHistory()

    # ---- channels ----------------------------------------------------------------------------

    def channels(self) -> list[Channel]:
        return [s.channel for s in self._channels.values()]

    def _state(self, channel_id: object) -> ChannelState:
        state = self._channels.get(channel_id) if isinstance(channel_id, str) else None
        if state is None:
            raise no_channel(channel_id)
        return state

    def view(self, channel_id: str) -> ChannelView | None:
        """The channel's latest published view; any thread."""
        return self._views.get(channel_id)

    def _check_name(self, name: object, description: object, skip: str = "") -> tuple[str, str]:
        if not isinstance(name, str) or not name.strip():
            raise UserError(_("a channel needs a name"))
        if not isinstance(description, str):
            raise UserError(_("the description must be text"))
        name, description = name.strip(), description.strip()
        if len(name) > NAME_MAX:
            raise UserError(_("a channel name has at most {n} characters").format(n=NAME_MAX))
        if len(description) > NAME_MAX:
            raise UserError(_("a description has at most {n} characters").format(n=NAME_MAX))
        for state in self._channels.values():
            other = state.channel
            if state.id != skip and not other.direct and other.name.lower() == name.lower():
                raise UserError(_("a channel named {name} already exists").format(name=name))
        return name, description

    def create(self, name: object, description: object = "") -> Channel:
        name, description = self._check_name(name, description)
        state = ChannelState(
            StoredChannel(channel=Channel(id=new_id(), name=name, description=description))
        )
        self._channels[state.id] = state
        self._save(state)
        self._emit_channels()
        return state.channel

    def rename(self, channel_id: object, name: object, description: object = "") -> Channel:
        state = self._state(channel_id)
        if state.channel.direct:
            raise UserError(_("a direct conversation cannot be renamed"))
        state.channel.name, state.channel.description = self._check_name(
            name, description, skip=state.id
        )
        self._save(state)
        self._emit_channels()
        return state.channel

    async def delete(self, channel_id: object) -> None:
        state = self._state(channel_id)
        await self._stop_channel(state)
        self._channels.pop(state.id, None)
        self._history.delete_channel(state.id)
        self._emit_channels()

    def direct(self, agent: object) -> Channel:
        name = self._configured(agent)
        for state in self._channels.values():
            if state.channel.direct == name:
                return state.channel
        channel = Channel(id=new_id(), direct=name, members=[name])
        state = ChannelState(StoredChannel(channel=channel))
        self._channels[state.id] = state
        self._save(state)
        self._emit_channels()
        return channel

    def add_member(self, channel_id: object, agent: object) -> Channel:
        state = self._state(channel_id)
        name = self._configured(agent)
        if state.channel.direct:
            raise UserError(_("a direct conversation has a single member"))
        if name in state.channel.members:
            raise UserError(_("{agent} is already a member").format(agent=name))
        self._join(state, name)
        return state.channel

    async def remove_member(self, channel_id: object, agent: object) -> Channel:
        state = self._state(channel_id)
        if state.channel.direct:
            raise UserError(_("a direct conversation has a single member"))
        if not isinstance(agent, str) or agent not in state.channel.members:
            raise UserError(_("{agent} is not a member of this channel").format(agent=agent))
        state.due = [a for a in state.due if a != agent]
        if state.answer_agent == agent:
            await self._cancel_answer(state)
        state.channel.members.remove(agent)
        state.stored.sessions.pop(agent, None)
        state.sessions.pop(agent, None)
        if state.stored.last_responder == agent:
            state.stored.last_responder = ""
        self._system(state, "agent-left", agent)
        self._save(state)
        self._emit_channels()
        return state.channel

    def _configured(self, agent: object) -> str:
        if isinstance(agent, str) and agent in self._supervisor.names():
            return agent
        raise UserError(_("there is no agent named {name}").format(name=f"`{agent}`"))

    def _join(self, state: ChannelState, agent: str) -> None:
        state.channel.members.append(agent)
        self._system(state, "agent-joined", agent)
        self._save(state)
        self._emit_channels()

    # ---- sending -----------------------------------------------------------------------------

    def send(self, channel_id: object, text: object) -> str:
        state = self._state(channel_id)
        if not isinstance(text, str) or not text.strip():
            raise UserError(_("the message is empty"))
        message = new_message(state.id, "user", parts=[Part(kind="text", text=text)])
        if state.busy:
            message.queued = True
            state.queue.append(message)
            self._emit_message(message)
            self._emit_turn(state)
            return message.id
        self._history.add_message(message)
        self._emit_message(message)
        state.queue.append(message)
        state.worker = asyncio.get_running_loop().create_task(self._work(state))
        return message.id

    async def _work(self, state: ChannelState) -> None:
        self._emit_turn(state)
        try:
            while state.queue:
                message = state.queue.pop(0)
                if message.queued:
                    message.queued = False
                    self._history.add_message(message)
                    self._emit_message(message)
                state.cancelled, state.rejections = False, 0
                state.abandon, state.cancel_event = asyncio.Event(), asyncio.Event()
                try:
                    await self._answer_message(state, message)
                except Exception:
                    log.exception("answering a message failed")
        finally:
            state.answering, state.due = "", []
            state.worker = None
            self._emit_turn(state)

    async def _answer_message(self, state: ChannelState, message: Message) -> None:
        text = message.parts[0].text
        decided = route(
            text,
            configured=self._supervisor.names(),
            members=list(state.channel.members),
            direct=state.channel.direct,
            last_responder=state.stored.last_responder,
        )
        if decided.no_recipient:
            self._system(state, "no-recipient", "")
            return
        for agent in decided.joining:
            if agent not in state.channel.members:
                self._join(state, agent)
        state.due = list(decided.recipients)
        while state.due and not state.cancelled:
            agent = state.due.pop(0)
            await self._agent_turn(state, agent, decided, message)

    async def _agent_turn(
        self, state: ChannelState, agent: str, decided: Route, message: Message
    ) -> None:
        lock = self._agent_locks.setdefault(agent, asyncio.Lock())
        state.answering = agent
        self._emit_turn(state)  # whose turn it is, even while waiting for another channel
        if not await self._take_turn(state, lock):
            return
        try:
            if agent not in state.channel.members:
                return
            try:
                conn = await self._supervisor.acquire(agent)
            except UserError as err:
                self._system(state, "agent-unavailable", agent, str(err))
                return
            try:
                await self._prompt(state, agent, conn, decided, message)
            finally:
                self._supervisor.release(agent)
        finally:
            lock.release()

    @staticmethod
    async def _take_turn(state: ChannelState, lock: asyncio.Lock) -> bool:
        """Waits for the agent (busy in another channel) unless this channel is cancelled."""
        if state.cancelled:
            return False
        acquire = asyncio.ensure_future(lock.acquire())
        cancelled = asyncio.ensure_future(state.cancel_event.wait())
        await asyncio.wait({acquire, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        cancelled.cancel()
        if acquire.done() and not acquire.cancelled():
            if not state.cancelled:
                return True
            lock.release()  # got it just as the channel was cancelled: give it back
            return False
        acquire.cancel()
        return False

    async def _prompt(
        self,
        state: ChannelState,
        agent: str,
        conn: AgentConnection,
        decided: Route,
        message: Message,
    ) -> None:
        try:
            session_id = await self._open_session(state, agent, conn)
        except Exception as err:
            self._system(state, "agent-unavailable", agent, describe_error(err))
            return
        member = state.member(agent)
        prompt = decided.text
        if not decided.command:
            unseen = [
                m
                for m in self._history.messages_after(
                    state.id, member.last_seen, CONTEXT_MESSAGES + 1
                )
                if m.id != message.id
            ]
            prompt = build_prompt(decided.text, unseen, agent, state.channel.name)
        answer = Answer(new_message(state.id, "agent", agent=agent, done=False))
        state.answer, state.answer_agent = answer, agent
        state.answer_conn, state.answer_session = conn, session_id
        self._emit_message(answer.message)
        try:
            stop_reason = await self._await_prompt(state, conn, session_id, prompt)
            if state.cancelled:
                stop_reason = "cancelled"  # some agents answer a cancel with end_turn
            answer.message.stop_reason = stop_reason  # type: ignore[assignment]
        except Exception as err:
            answer.message.error = describe_error(err)
            if isinstance(err, ConnectionError):
                tail = "\n".join(conn.stderr_tail(5))
                answer.message.error += f"\n{tail}" if tail else ""
        except BaseException:  # the task was cancelled: the answer is not kept
            self._end_answer(state, agent)
            raise
        answer.message.done = True
        try:
            if not state.closing:
                # Stored before the views forget the live answer: a page reading meanwhile
                # sees it once or twice (deduplicated), never not at all (app/channels/reading.py).
                self._history.add_message(answer.message)
        except Exception as err:  # a full disk, a damaged database: shown, said, not lost now
            log.exception("could not keep an answer in history")
            answer.message.error = _("this answer could not be saved: {reason}").format(
                reason=f"{type(err).__name__}: {err}"
            )
        finally:
            self._end_answer(state, agent)
        self._emit_message(answer.message)
        if state.closing:
            return
        member.last_seen = answer.message.id
        state.stored.last_responder = agent
        self._save(state)

    def _end_answer(self, state: ChannelState, agent: str) -> None:
        state.answer, state.answer_agent, state.answer_conn = None, "", None
        held, state.held = state.held, []
        for message in held:
            try:
                self._history.add_message(message)
            except Exception:
                log.exception("could not keep a message in history")
        self._resolve_permissions(state, agent)

    async def _await_prompt(
        self, state: ChannelState, conn: AgentConnection, session_id: str, prompt: str
    ) -> str:
        """The prompt's stop reason; "cancelled" if the agent ignores a cancel for too long."""
        task = asyncio.ensure_future(conn.prompt(session_id, prompt))
        abandon = asyncio.ensure_future(state.abandon.wait())
        try:
            await asyncio.wait({task, abandon}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            abandon.cancel()
        if task.done():
            return task.result()
        log.warning("leaving an answer behind: the agent did not end it after session/cancel")
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return "cancelled"

    async def _open_session(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        """The agent's session for this channel: reused, resumed (session/load) or new."""
        existing = state.sessions.get(agent)
        if existing is not None and existing.conn is conn:
            return existing.session_id
        member = state.member(agent)
        router = SessionRouter(self, state.id, agent)
        if member.session_id and conn.supports_load:
            router.loading = True
            try:
                await conn.load_session(member.session_id, router)
            except Exception as err:
                log.info("%s could not resume session %s: %s", agent, member.session_id, err)
            else:
                router.loading = False
                state.sessions[agent] = OpenSession(conn, member.session_id)
                return member.session_id
            finally:
                router.loading = False
        session_id = await conn.new_session(router)
        if member.session_id:
            member.last_seen = ""  # a new session knows nothing: give it the latest messages
        member.session_id = session_id
        state.sessions[agent] = OpenSession(conn, session_id)
        self._save(state)
        return session_id

    # ---- updates from agents -----------------------------------------------------------------

    def on_update(self, channel_id: str, agent: str, update: Any, replay: bool) -> None:
        kind = getattr(update, "session_update", "")
        if kind == "usage_update":
            self._usage(channel_id, agent, update)
            return
        if kind == "available_commands_update":
            self._announce_commands(agent, update.available_commands or [])
            return
        state = self._channels.get(channel_id)
        if replay or state is None or state.answer is None or state.answer_agent != agent:
            return  # a replayed or late update: history already has what it says
        deltas = state.answer.apply(update)
        if not deltas and kind not in self._ignored_updates:
            self._ignored_updates.add(kind)
            log.info("ignoring session updates of kind %r", kind)
        for delta in deltas:
            self._bus.emit(names.MESSAGE_DELTA, delta)

    def _usage(self, channel_id: str, agent: str, update: Any) -> None:
        state = self._channels.get(channel_id)
        if state is None:
            return
        usage = Usage(used=int(update.used or 0), size=int(update.size or 0))
        state.member(agent).usage = usage
        self._publish(state)
        self._bus.emit(
            names.USAGE_CHANGED, UsageChanged(channel=channel_id, agent=agent, usage=usage)
        )

    def _announce_commands(self, agent: str, announced: list[Any]) -> None:
        commands = []
        for command in announced:
            hint = getattr(getattr(command, "input", None), "root", None)
            commands.append(
                Command(
                    name=str(command.name),
                    description=str(command.description or ""),
                    hint=str(getattr(hint, "hint", "") or ""),
                )
            )
        self._commands[agent] = commands
        if self._history.commands(agent) != commands:
            self._history.put_commands(agent, commands)
        self._bus.emit(names.COMMANDS_CHANGED, CommandsChanged(agent=agent, commands=commands))

    def commands(self, agent: object) -> list[Command]:
        name = self._configured(agent)
        if name not in self._commands:
            self._commands[name] = self._history.commands(name)
        return self._commands[name]

    # ---- permissions -------------------------------------------------------------------------

    async def on_permission(
        self, channel_id: str, agent: str, tool_call: Any, options: list[PermissionOption]
    ) -> str | None:
        state = self._channels.get(channel_id)
        if state is None or state.answer is None or state.answer_agent != agent:
            return None
        if state.cancelled:
            return None
        delta = state.answer.tool(tool_call)  # show (or update) the tool the request is about
        self._bus.emit(names.MESSAGE_DELTA, delta)
        tool = state.answer.tool_call(str(tool_call.tool_call_id)) or ToolCall(id="?")
        request = PermissionRequested(
            id=new_id(),
            channel=channel_id,
            agent=agent,
            message_id=state.answer.message.id,
            tool_call=tool.model_copy(deep=True),
            options=[WireOption(option_id=o.option_id, name=o.name, kind=o.kind) for o in options],
            rejections=state.rejections,
        )
        pending = PendingPermission(request, asyncio.get_running_loop().create_future())
        self._permissions[request.id] = pending
        self._publish(state)
        self._bus.emit(names.PERMISSION_REQUESTED, request)
        try:
            return await pending.future
        finally:
            self._permissions.pop(request.id, None)

    def answer_permission(self, request_id: object, option_id: object) -> None:
        pending = self._permissions.get(request_id) if isinstance(request_id, str) else None
        if pending is None or pending.future.done():
            raise UserError(_("there is no pending permission request {id}").format(id=request_id))
        request = pending.request
        option = next((o for o in request.options if o.option_id == option_id), None)
        if option is None:
            raise UserError(
                _("{option} is not one of this request's options ({options})").format(
                    option=option_id, options=", ".join(o.option_id for o in request.options)
                )
            )
        pending.future.set_result(option.option_id)
        if state := self._channels.get(request.channel):
            if option.kind.startswith("reject"):
                state.rejections += 1
            self._publish(state)
        self._bus.emit(
            names.PERMISSION_RESOLVED, PermissionResolved(id=request.id, channel=request.channel)
        )

    def _resolve_permissions(self, state: ChannelState, agent: str | None = None) -> None:
        """Answers "cancelled" to the channel's pending requests (of `agent`, if given)."""
        resolved = []
        for pending in list(self._permissions.values()):
            request = pending.request
            if request.channel != state.id or (agent and request.agent != agent):
                continue
            self._permissions.pop(request.id, None)
            if not pending.future.done():
                pending.future.set_result(None)
                resolved.append(request.id)
        if not resolved:
            return
        self._publish(state)  # once, before the page hears of them
        for request_id in resolved:
            self._bus.emit(
                names.PERMISSION_RESOLVED, PermissionResolved(id=request_id, channel=state.id)
            )

    # ---- cancel ------------------------------------------------------------------------------

    async def cancel(self, channel_id: object) -> None:
        state = self._state(channel_id)
        state.cancelled = True
        state.cancel_event.set()
        state.due = []
        for message in state.queue_view():  # dropped, and not kept in history
            message.queued = False
            message.error = "cancelled"
            self._emit_message(message)
        state.queue = []
        self._resolve_permissions(state)
        await self._cancel_answer(state)
        self._emit_turn(state)

    async def _cancel_answer(self, state: ChannelState) -> None:
        if state.answer_conn is None:
            return
        await state.answer_conn.cancel(state.answer_session)
        asyncio.get_running_loop().call_later(CANCEL_GRACE, state.abandon.set)

    async def _stop_channel(self, state: ChannelState) -> None:
        state.closing = True
        await self.cancel(state.id)
        worker = state.worker
        if worker is None:
            return
        # Closing or deleting: give the agent a moment to end its answer, not the full grace.
        await asyncio.wait({worker}, timeout=STOP_GRACE)
        if not worker.done():
            state.abandon.set()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(worker), CANCEL_GRACE)

    async def prepare(self, channel_id: object) -> None:
        state = self._state(channel_id)
        todo = [
            agent
            for agent in state.channel.members
            if agent in self._supervisor.names()
            and not self.commands(agent)
            and not self._agent_locks.setdefault(agent, asyncio.Lock()).locked()
        ]
        await asyncio.gather(*(self._prepare_member(state, a) for a in todo))

    async def _prepare_member(self, state: ChannelState, agent: str) -> None:
        try:
            conn = await self._supervisor.start(agent)
            await self._open_session(state, agent, conn)
        except Exception as err:
            log.info("could not prepare %s: %s", agent, err)

    # ---- helpers -----------------------------------------------------------------------------

    def _system(self, state: ChannelState, code: SystemCode, agent: str, error: str = "") -> None:
        message = new_message(state.id, "system", agent=agent, code=code, error=error)
        if state.answer is not None:
            state.held.append(message)  # shown below the answer: kept after it (_end_answer)
        else:
            self._history.add_message(message)
        self._emit_message(message)

    def _save(self, state: ChannelState) -> None:
        self._history.put_channel(state.stored)

    def _emit_channels(self) -> None:
        self._views = {id: self._view(state) for id, state in self._channels.items()}
        self._bus.emit(names.CHANNELS_CHANGED, ChannelsChanged(channels=self.channels()))

    def _emit_message(self, message: Message) -> None:
        if state := self._channels.get(message.channel):
            self._publish(state)
        self._bus.emit(
            names.MESSAGE_UPDATED,
            MessageUpdated(channel=message.channel, message=message),
        )

    def _emit_turn(self, state: ChannelState) -> None:
        self._publish(state)
        self._bus.emit(
            names.TURN_CHANGED,
            TurnChanged(
                channel=state.id,
                busy=state.busy,
                queued=len(state.queue_view()),
                answering=state.answering,
            ),
        )

    def _publish(self, state: ChannelState) -> None:
        """Publishes the channel's view for reads from other threads (a deleted channel's
        state, still finishing its answer, publishes nothing)."""
        if self._channels.get(state.id) is state:
            self._views[state.id] = self._view(state)

    def _view(self, state: ChannelState) -> ChannelView:
        queued = state.queue_view()
        head = ConversationHead(
            channel=state.channel,
            busy=state.busy,
            queued=len(queued),
            answering=state.answering,
            usage=state.usage(),
            permissions=[
                p.request
                for p in self._permissions.values()
                if p.request.channel == state.id and not p.future.done()
            ],
        )
        answer = state.answer.message if state.answer is not None else None
        return ChannelView.of(head, self._history, answer, [*state.held, *queued])
