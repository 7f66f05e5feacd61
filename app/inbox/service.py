"""InboxService (extension, issue 17): what waits for the person across the conversations —
pending permission requests and agents' questions (elicitations), "always allow" rules, unread
answers — and what is on screen. The requests, questions and rules are the channels'
(permissions.py, elicitations.py, permission_rules.py); the counts are app/attention's, a bus
subscriber."""

from __future__ import annotations

from app.attention.tracker import AttentionTracker
from app.channels.parts import ChannelParts
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.events.payloads import PermissionRequested
from app.models.elicitation import ElicitationRequested
from app.models.finding import AttentionCounts, PermissionRule


class InboxService:
    def __init__(self, parts: ChannelParts, attention: AttentionTracker, core: LoopThread) -> None:
        self._permissions = parts.permissions
        self._elicitations = parts.elicitations
        self._rules = parts.rules
        self._attention = attention
        self._core = core

    @exposed
    def Permissions(self) -> list[PermissionRequested]:
        """Extension: every pending permission request of every channel, oldest first."""
        return self._core.call(self._permissions.all)

    @exposed
    def Elicitations(self) -> list[ElicitationRequested]:
        """Extension (issue 26): every agent's pending question (elicitation) in every
        channel, oldest first; answered with ChannelService.AnswerElicitation."""
        return self._core.call(self._elicitations.all)

    @exposed
    def PermissionRules(self) -> list[PermissionRule]:
        """Extension: the "always allow" rules the person gave (per agent and tool kind)."""
        return self._core.call(self._rules.all)

    @exposed
    def RevokePermissionRule(self, ruleId: str) -> list[PermissionRule]:
        """Extension: forgets a rule; the rules left."""
        return self._core.call(lambda: self._rules.revoke(ruleId))

    @exposed
    def Viewing(self, id: str, focused: bool) -> AttentionCounts:
        """Extension: the page says which conversation is on screen ("" for none) and whether
        the window has the focus; its answers count as read then. Remembered as the
        conversation to reopen at the next start."""
        return self._core.call(lambda: self._attention.viewing(id, focused))

    @exposed
    def Attention(self) -> AttentionCounts:
        """Extension: unread answers by channel and pending permission requests."""
        return self._core.call(self._attention.counts)

    @exposed
    def LastViewed(self) -> str:
        """Extension: the conversation on screen when the app last closed ("" for none or one
        deleted since)."""
        return self._core.call(self._attention.last_viewed)
