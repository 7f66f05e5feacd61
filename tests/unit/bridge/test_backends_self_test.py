"""The self-test's verdict on what the page reported (app/bridge/self_test.py), and its reach: it
is asked for by a hidden flag or an environment variable, and adds nothing the page can call."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.__main__ import parse_args
from app.api import service_classes
from app.bridge import allowlist, self_test
from app.bridge.elsewhere import Elsewhere
from app.bridge.self_test import requested, verdict

CSP = "default-src 'self'; script-src 'self'; object-src 'none'"
PASSED = {"call": "ok", "event": True, "inline": "refused", "eval": "refused", "meta": CSP}


def test_every_step_done_passes() -> None:
    assert verdict(PASSED) is None
    assert verdict({**PASSED, "eval": "allowed"}) is None  # said in the log, not a step


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"inline": "ran"}, "Content-Security-Policy is not in force"),
        ({"meta": CSP + "; script-src 'self' 'unsafe-eval'"}, "not the app's strict one"),
        ({"meta": ""}, "not the app's strict one"),
        ({"call": "pending"}, "bridge call did not answer: pending"),
        ({"call": "failed: TypeError: x"}, "did not answer: failed: TypeError: x"),
        ({"event": False}, "pushed event did not reach the page"),
    ],
)
def test_a_missing_step_is_the_reason_given(change: dict[str, Any], reason: str) -> None:
    failure = verdict({**PASSED, **change})
    assert failure is not None and reason in failure


def test_no_state_means_the_script_never_ran() -> None:
    assert verdict(None) == "the self-test script did not run in the page"


def test_it_is_asked_for_by_the_hidden_flag_or_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(self_test.SELF_TEST_ENV, raising=False)
    assert requested(parse_args(["--self-test"]).self_test) is True
    assert requested(parse_args([]).self_test) is False
    monkeypatch.setenv(self_test.SELF_TEST_ENV, "0")
    assert requested(False) is False
    monkeypatch.setenv(self_test.SELF_TEST_ENV, "1")
    assert requested(False) is True


def test_the_flag_is_not_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    assert "self-test" not in capsys.readouterr().out


def test_the_page_can_call_nothing_of_the_self_test(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    with Sidekicks(config=config) as sk:
        names = allowlist.allowed_calls(sk.api)
    assert {name.split(".")[0] for name in names} == {s.__name__ for s in service_classes()}
    assert not [name for name in names if "test" in name.lower()]


def test_the_other_origin_counts_who_asked_for_it() -> None:
    with Elsewhere() as elsewhere:
        assert elsewhere.url.startswith("http://127.0.0.1:")
        assert elsewhere.requests == 0
        with urllib.request.urlopen(elsewhere.url, timeout=5) as answer:
            assert b"Not the app" in answer.read()
        assert elsewhere.requests == 1
