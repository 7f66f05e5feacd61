"""A session's history as `session/load` replays it, made into messages of a conversation (an
agent's own session opened with ChannelService.OpenSession: the conversation has none of it).

The person's chunks (`user_message_chunk`) make user messages; the agent's text, thoughts, tool
calls and plans make its answers, through the same Answer a live answer uses. A message ends
when the other side speaks.
"""

from __future__ import annotations

from app.acp.updates import PlanChanged, SessionEvent, TextDelta, ToolChange, UserText
from app.channels.answer import Answer
from app.channels.publishing import new_message
from app.core.text import valid_text
from app.models.conversation import Message, Part

MAX_REPLAYED = 5000  # messages kept of one replay (the rest is the agent's)


class Replay:
    def __init__(self, channel_id: str, agent: str) -> None:
        self._channel_id, self._agent = channel_id, agent
        self.messages: list[Message] = []
        self._user: Message | None = None
        self._answer: Answer | None = None

    def add(self, event: SessionEvent) -> None:
        """Takes one replayed event (those that are neither said nor done are not kept)."""
        if len(self.messages) >= MAX_REPLAYED:
            return
        match event:
            case UserText():
                self._user_text(event.text)
            case TextDelta() | ToolChange() | PlanChanged():
                self._agent_event(event)

    def _user_text(self, text: str) -> None:
        self._end_answer()
        if self._user is None:
            self._user = new_message(self._channel_id, "user", parts=[Part(kind="text")])
            self.messages.append(self._user)
        self._user.parts[0].text += text

    def _agent_event(self, event: TextDelta | ToolChange | PlanChanged) -> None:
        self._user = None
        if self._answer is None:
            self._answer = Answer(new_message(self._channel_id, "agent", agent=self._agent))
            self.messages.append(self._answer.message)
        if isinstance(event, TextDelta):
            self._answer.append_text(event)
        elif isinstance(event, ToolChange):
            self._answer.tool(event)
        else:
            self._answer.plan(event)

    def _end_answer(self) -> None:
        if self._answer is not None:
            self._answer.finish()
            self._answer = None

    def finished(self) -> list[Message]:
        """The messages, ended (a user message's text made valid, empty ones left out)."""
        self._end_answer()
        self._user = None
        kept = []
        for message in self.messages:
            if message.role == "user":
                message.parts[0].text = valid_text(message.parts[0].text)
                if not message.parts[0].text.strip():
                    continue
            elif not message.parts:
                continue
            message.stop_reason = "end_turn" if message.role == "agent" else None
            kept.append(message)
        return kept
