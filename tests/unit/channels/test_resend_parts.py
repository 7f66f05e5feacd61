"""The pure parts of resending (issue 17): a retry's routing, and the dropped messages kept."""

from __future__ import annotations

from app.channels.resending import DroppedMessages, Resending
from app.channels.routing import only, route
from app.models.conversation import Message

CONFIGURED = ["alpha", "beta", "gamma"]


def routed_only(text: str, agent: str, members: list[str], last: str = "") -> tuple[object, ...]:
    decided = only(
        route(text, configured=CONFIGURED, members=members, last_responder=last), agent, members
    )
    d = decided
    return (d.recipients, d.joining, d.command, d.text, d.no_recipient)


def test_a_retry_goes_to_its_agent_alone_whoever_the_message_mentions() -> None:
    both = ["alpha", "beta"]
    assert routed_only("@alpha @beta look", "beta", both) == (
        ["beta"], [], False, "@alpha @beta look", False,
    )  # fmt: skip
    # Nobody mentioned and nobody answered last (no-recipient for a new message): still beta.
    assert routed_only("look", "beta", both)[0] == ["beta"]
    assert routed_only("look", "beta", both, last="alpha")[0] == ["beta"]


def test_a_retried_command_stays_a_command_with_its_prefix_removed() -> None:
    assert routed_only("/alpha:help me", "alpha", ["alpha"]) == (
        ["alpha"], [], True, "/help me", False,
    )  # fmt: skip
    assert routed_only("@beta /echo hi", "beta", ["alpha", "beta"])[2:4] == (True, "/echo hi")


def message(n: int) -> Message:
    return Message(id=f"M{n:03}", channel="C", created_at="", role="user")


def test_dropped_messages_are_kept_per_channel_up_to_a_limit_and_forgotten_with_it() -> None:
    dropped = DroppedMessages()
    for n in range(DroppedMessages.KEPT_DROPPED + 5):
        dropped.add("C", Resending(message(n), "beta" if n % 2 else ""))
    assert dropped.get("C", "M000") is None  # the oldest went
    kept = dropped.get("C", f"M{DroppedMessages.KEPT_DROPPED + 4:03}")
    assert kept is not None and kept.agent == ""
    assert dropped.get("other", "M010") is None
    dropped.discard("C", "M010")
    assert dropped.get("C", "M010") is None
    assert dropped.get("C", "M011") is not None
    dropped.forget("C")
    assert dropped.get("C", "M011") is None
