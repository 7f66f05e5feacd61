"""One agent's answer to one user message, once its turn came (turns.py): its session opened,
the prompt with what it has not seen yet, the live answer streamed, then kept in history with
the messages held meanwhile. Stop cancels the message's scope; an agent that ignores the cancel
for too long is left behind (`CancelScope.abandon`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.errors import describe_error, with_stderr
from app.acp.prompts import PromptBlock
from app.channels.answer import Answer
from app.channels.context import CONTEXT_MESSAGES, build_prompt, prompt_blocks
from app.channels.failed_answer import failed, note_details, without_repeated_error
from app.channels.permissions import PermissionBroker
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.channels.routing import Route
from app.channels.sessions import Sessions
from app.channels.state import ActiveTurn, CancelScope, ChannelState
from app.channels.terminal_hub import TerminalHub
from app.history.failures import failure_reason
from app.i18n import _
from app.models.conversation import Handoff, Message, StopReason
from app.workspace.answer_watch import AnswerWatch
from app.workspace.checkpointing import Checkpointing

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection

log = logging.getLogger(__name__)

# The folders an agent's answers are checkpointed in (channel id, agent, its connection): its
# `cwd` (an isolated member's worktree) and `folders:`.
FoldersOf = Callable[[str, str, "AgentConnection"], list[Path]]


class Answering:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        permissions: PermissionBroker,
        sessions: Sessions,
        terminals: TerminalHub,
        checkpointing: Checkpointing | None = None,
        folders: FoldersOf | None = None,
    ) -> None:
        self._checkpointing = checkpointing  # the agent's folders before and after the answer
        self._folders = folders
        self._registry = registry
        self._publisher = publisher
        self._permissions = permissions
        self._sessions = sessions
        self._terminals = terminals  # the answer's commands: shown in it, updated once kept

    async def answer(
        self,
        state: ChannelState,
        agent: str,
        conn: AgentConnection,
        decided: Route,
        message: Message,
        handoff: Handoff | None = None,
        extra: Sequence[PromptBlock] = (),
    ) -> Message | None:
        """`agent` answers `message` through `conn` (its turn and its process are held); the
        answer once it ended (None when there was none). A hand-off (issue 28) marks its answer
        `handoff` and sends `extra` (the previous answer's changes and plan) after the prompt."""
        try:
            session = await self._sessions.open(state, agent, conn)
        except Exception as err:
            note_details(err, conn.note)  # what the sentence leaves out, in the agent's log
            self._publisher.system(state, "agent-unavailable", agent, describe_error(err))
            return None
        if state.scope.cancelled:  # Stop came while its session opened: nothing is asked
            return None
        member = state.member(agent)
        prompt = decided.text
        if not decided.command:
            unseen = [
                m
                for m in self._registry.history.messages_after(
                    state.id, member.last_seen, CONTEXT_MESSAGES + 1
                )
                if m.id != message.id
            ]
            own = member.replay_own  # a fork's new session (app/channels/forking.py)
            prompt = build_prompt(decided.text, unseen, agent, state.channel.name, own)
            member.replay_own = False
        started = new_message(state.id, "agent", agent=agent, done=False, handoff=handoff)
        turn = ActiveTurn(agent, Answer(started, self._terminals.view), conn, session.session_id)
        state.turn = turn
        answer = turn.answer.message
        self._publisher.message(answer)
        try:
            turn.watch = await self._checkpoint(state.id, answer.id, agent, conn)
            blocks = [*prompt_blocks(prompt, message.attachments), *extra]  # files read as sent
            stop_reason = await _await_prompt(state.scope, turn, blocks)
            # Some agents answer a cancel with end_turn.
            answer.stop_reason = "cancelled" if state.scope.cancelled else stop_reason
        except Exception as err:
            failed(answer, err, conn.note)  # its sentence, and its details
            if isinstance(err, ConnectionError):  # its last words, without terminal codes
                answer.error = with_stderr(answer.error, conn.stderr_tail(5))
        except BaseException:  # the task was cancelled: the answer is not kept
            if self._checkpointing is not None:
                self._checkpointing.drop(turn.watch)
            self._end_answer(state, agent)
            raise
        if self._checkpointing is not None and not state.closing:
            # Its changes, whatever made them, are recorded before its turn ends.
            await self._checkpointing.end(turn.watch)
        # A surrogate half that never got its pair; the commands' output as it is now; tool
        # calls the agent left pending or running (a Stop, an error), which nothing will end.
        live = turn.answer
        for delta in [*live.finish(), *live.final_terminals(), *live.cancel_unfinished_tools()]:
            self._publisher.delta(delta)
        without_repeated_error(answer)  # an error the agent also said as the answer's text
        answer.done = True
        try:
            if not state.closing:
                # Stored before the views forget the live answer: a page reading meanwhile
                # sees it once or twice (deduplicated), never not at all (app/channels/reading.py).
                self._registry.keep(answer)
                self._terminals.answer_kept(answer)  # a command ending later updates it
        except Exception as err:  # a full disk, a damaged database: shown, said, not lost now
            log.exception("could not keep an answer in history")
            answer.error = _("this answer could not be saved: {reason}").format(
                reason=failure_reason(err)
            )
        finally:
            self._end_answer(state, agent)
        self._publisher.message(answer)
        if state.closing:
            return None
        member.last_seen = answer.id
        state.stored.last_responder = agent
        try:
            self._registry.save(state)
        except Exception:  # only who saw what is lost: the next agents still answer
            log.exception("could not keep a channel's record in history")
        return answer

    async def _checkpoint(
        self, channel_id: str, message_id: str, agent: str, conn: AgentConnection
    ) -> AnswerWatch | None:
        if self._checkpointing is None or self._folders is None:
            return None
        return await self._checkpointing.begin(
            channel_id, message_id, agent, self._folders(channel_id, agent, conn)
        )

    def _end_answer(self, state: ChannelState, agent: str) -> None:
        state.turn = None
        held, state.held = state.held, []
        for message in held:
            try:
                self._registry.keep(message)
            except Exception:
                log.exception("could not keep a message in history")
        self._publisher.permissions_resolved(state, self._permissions.cancel(state.id, agent))


async def _await_prompt(
    scope: CancelScope, turn: ActiveTurn, prompt: list[PromptBlock]
) -> StopReason:
    """The prompt's stop reason; "cancelled" if the agent ignores a cancel for too long."""
    task = asyncio.ensure_future(turn.conn.prompt(turn.session_id, prompt))
    abandoned = asyncio.ensure_future(scope.wait_abandoned())
    try:
        await asyncio.wait({task, abandoned}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        abandoned.cancel()
    if task.done():
        return task.result()
    log.warning("leaving an answer behind: the agent did not end it after session/cancel")
    # Given up: cancelling the request names it to the agent in a `$/cancel_request`
    # (app/acp/link.py), so an agent that missed session/cancel can still stop.
    task.cancel()
    return "cancelled"
