"""The person's "always allow" rules (issue 17): one per agent and tool kind, given by answering
a permission request with an `allow_always` option, kept with the history (never in the YAML)
and applied in every channel until revoked.

Every tool kind may get a rule, `execute` and `delete` included: the person chose "always"
explicitly, and the inbox lists each rule with its kind and an example so it can be revoked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pydantic import TypeAdapter, ValidationError

from app.core.errors import UserError
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import PermissionRequested
from app.history.base import History
from app.i18n import _
from app.models.conversation import PermissionOption, ToolKind
from app.models.finding import PermissionRule, PermissionRulesChanged

log = logging.getLogger(__name__)

RULES_KEY = "permission-rules"  # History.value key: a JSON list of PermissionRule
_RULES = TypeAdapter(list[PermissionRule])


def option_a_rule_gives(options: list[PermissionOption]) -> PermissionOption | None:
    """The option a rule answers with: the request's `allow_always`, else its `allow_once`;
    None when it offers no allow option (then the person is asked, as without a rule)."""
    for kind in ("allow_always", "allow_once"):
        option = next((o for o in options if o.kind == kind), None)
        if option is not None:
            return option
    return None


class PermissionRules:
    """Reads and writes the rules in the open history (`history()`: it changes with the
    configuration). The list is small: read from the history each time, never cached stale."""

    def __init__(self, bus: EventBus, history: Callable[[], History], now: Callable[[], str]):
        self._bus = bus
        self._history = history
        self._now = now

    def all(self) -> list[PermissionRule]:
        try:
            raw = self._history().value(RULES_KEY)
        except Exception as err:  # an unreadable history: no rule applies (the person is asked)
            log.warning("could not read the permission rules: %s", err)
            return []
        if raw is None:
            return []
        try:
            return _RULES.validate_json(raw)
        except ValidationError as err:
            log.warning("ignoring damaged permission rules: %s", err)
            return []

    def matching(self, agent: str, kind: ToolKind) -> PermissionRule | None:
        return next((r for r in self.all() if r.agent == agent and r.kind == kind), None)

    def given(self, request: PermissionRequested) -> PermissionRule:
        """The person answered `request` with "always allow": its agent and tool kind get a
        rule (the one they already have is kept as it is)."""
        kind = request.tool_call.kind
        existing = self.matching(request.agent, kind)
        if existing is not None:
            return existing
        rule = PermissionRule(
            id=new_id(),
            agent=request.agent,
            kind=kind,
            created_at=self._now(),
            channel=request.channel,
            example=request.tool_call.title[:200],
        )
        self._save([*self.all(), rule])
        return rule

    def revoke(self, rule_id: str) -> list[PermissionRule]:
        rules = self.all()
        left = [r for r in rules if r.id != rule_id]
        if len(left) == len(rules):
            raise UserError(_("there is no permission rule {id}").format(id=rule_id))
        self._save(left)
        return left

    def announce(self) -> None:
        """Tells the page the rules (another history was opened)."""
        self._bus.emit(names.PERMISSION_RULES_CHANGED, PermissionRulesChanged(rules=self.all()))

    def _save(self, rules: list[PermissionRule]) -> None:
        self._history().put_value(RULES_KEY, _RULES.dump_json(rules, by_alias=True))
        self._bus.emit(names.PERMISSION_RULES_CHANGED, PermissionRulesChanged(rules=rules))
