"""Every row of SPEC §4 "Who answers a message"."""

from __future__ import annotations

from app.channels.routing import mentions, route

AGENTS = ["claude", "codex", "demo"]


def test_agent_command_goes_to_that_agent_as_a_plain_command() -> None:
    r = route("/codex:review src/ --strict", configured=AGENTS, members=["claude"])
    assert (r.recipients, r.joining, r.command, r.text) == (
        ["codex"], ["codex"], True, "/review src/ --strict",
    )  # fmt: skip


def test_an_unknown_agent_in_a_command_is_not_an_agent_command() -> None:
    r = route("/nobody:thing", configured=AGENTS, members=["claude"])
    assert (r.recipients, r.command, r.text) == (["claude"], True, "/nobody:thing")


def test_mentions_answer_in_mention_order_and_non_members_join() -> None:
    r = route("@codex then @claude, and @codex again", configured=AGENTS, members=["claude"])
    assert r.recipients == ["codex", "claude"]
    assert r.joining == ["codex"]
    assert r.command is False
    assert r.text == "@codex then @claude, and @codex again"


def test_mentions_of_unconfigured_names_and_emails_are_plain_text() -> None:
    assert mentions("mail me@codex.org or @nobody, ask @Demo", AGENTS) == ["demo"]


def test_no_mention_goes_to_the_last_agent_that_answered() -> None:
    r = route("go on", configured=AGENTS, members=["claude", "codex"], last_responder="codex")
    assert r.recipients == ["codex"]


def test_no_mention_with_a_single_member_goes_to_it() -> None:
    assert route("hi", configured=AGENTS, members=["demo"]).recipients == ["demo"]


def test_no_mention_nobody_yet_and_several_members_is_no_recipient() -> None:
    r = route("hello all", configured=AGENTS, members=["claude", "codex"])
    assert r.no_recipient
    assert r.recipients == []


def test_a_channel_without_members_and_no_mention_is_no_recipient() -> None:
    assert route("hello", configured=AGENTS, members=[]).no_recipient


def test_a_last_responder_that_left_the_channel_is_not_used() -> None:
    r = route("hi", configured=AGENTS, members=["claude", "codex"], last_responder="demo")
    assert r.no_recipient


def test_in_a_direct_conversation_mentions_are_plain_text() -> None:
    r = route("ask @codex about it", configured=AGENTS, members=["demo"], direct="demo")
    assert (r.recipients, r.joining, r.text, r.command) == (
        ["demo"], [], "ask @codex about it", False,
    )  # fmt: skip


def test_in_a_direct_conversation_a_command_is_sent_alone() -> None:
    r = route("/help", configured=AGENTS, members=["demo"], direct="demo")
    assert (r.recipients, r.command, r.text) == (["demo"], True, "/help")
    r = route("/demo:echo hi", configured=AGENTS, members=["demo"], direct="demo")
    assert (r.command, r.text) == (True, "/echo hi")


def test_a_command_after_mentions_is_sent_alone_without_the_mentions() -> None:
    r = route("@demo /echo hi there", configured=AGENTS, members=[])
    assert (r.recipients, r.joining, r.command, r.text) == (
        ["demo"], ["demo"], True, "/echo hi there",
    )  # fmt: skip


def test_a_slash_command_without_mention_goes_to_the_usual_recipient() -> None:
    r = route("/help", configured=AGENTS, members=["demo"])
    assert (r.recipients, r.command, r.text) == (["demo"], True, "/help")
