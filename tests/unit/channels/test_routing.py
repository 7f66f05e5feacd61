"""Who answers a message (SPEC §4): every case of tests/corpus/routing.json, the corpus that the
UI's port of these rules (ui/src/conversation/routing.ts) is tested against too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.channels.routing import route

CORPUS = json.loads(
    (Path(__file__).resolve().parents[2] / "corpus" / "routing.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = CORPUS["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_backend_routes_the_message_as_the_corpus_says(case: dict[str, Any]) -> None:
    got = route(
        case["text"],
        configured=case["configured"],
        members=case["members"],
        direct=case["direct"],
        last_responder=case["lastResponder"],
    )
    assert {
        "recipients": got.recipients,
        "joining": got.joining,
        "command": got.command,
        "text": got.text,
        "noRecipient": got.no_recipient,
    } == case["expect"]


def test_the_corpus_checks_every_rule_of_the_spec_with_cases_named_once() -> None:
    assert {case["rule"] for case in CASES} == set(CORPUS["rules"])
    names = [case["name"] for case in CASES]
    assert len(set(names)) == len(names) >= 30
