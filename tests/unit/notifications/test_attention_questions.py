"""An agent's question (elicitation, issue 26) waits like a permission request: counted until it
is resolved, notified with the agent's sentence while the window is not focused."""

from __future__ import annotations

from app.attention.notice import Notice
from app.events import names
from app.models.elicitation import ElicitationRequested, ElicitationResolved
from tests.unit.notifications.test_attention_tracker import Setup


def test_a_question_counts_until_resolved_and_is_notified() -> None:
    s = Setup()
    s.tracker.viewing("c1", focused=False)
    question = ElicitationRequested(
        id="q1", channel="c1", agent="demo", message_id="m9", mode="form",
        message="Which **region**?\nmore",
    )  # fmt: skip
    s.bus.emit(names.ELICITATION_REQUESTED, question)

    assert s.tracker.counts().permissions == 1
    assert s.notifier.notices[-1] == Notice("c1", "m9", "Demo in #general", "Which region?")
    s.bus.emit(names.ELICITATION_RESOLVED, ElicitationResolved(id="q1", channel="c1"))
    assert s.tracker.counts().total == 0
