"""Which members an agent's answer hands work to (app/channels/handoffs/mentions.py)."""

from __future__ import annotations

import pytest

from app.channels.handoffs.mentions import handed_to

MEMBERS = ["alice", "bob", "carol"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@bob please review, then @carol", ["bob", "carol"]),
        ("@BOB and @bob again", ["bob"]),  # any case, once
        ("thanks @alice", []),  # the agent itself
        ("@dave, you too", []),  # not a member
        ("mail me at x@bob.org", []),  # not a mention (routing.py's rule)
        ("run `@bob review` in a shell", []),
        ("``code with ` and @bob``", []),
        ("```\n@bob review\n```\nthen @carol", ["carol"]),
        ("~~~python\n@bob\n~~~", []),
        ("````\n```\n@bob\n````\n@carol", ["carol"]),  # a shorter fence does not close it
        ("> @bob said so\n>> @carol too", []),
        ("```\nnever closed @bob", []),
        ("`unclosed @bob", ["bob"]),  # a lone backquote is not code
    ],
)
def test_mentions_in_prose_only(text: str, expected: list[str]) -> None:
    assert handed_to(text, "alice", MEMBERS) == expected
