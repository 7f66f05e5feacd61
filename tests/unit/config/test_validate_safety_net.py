"""A bug in the checks reaches the editor as a problem, and the log with its traceback."""

from __future__ import annotations

import logging

import pytest

from app.config import validate
from app.config.validate import validate_text


def _buggy_check(*_args: object, **_kwargs: object) -> validate.Validation:
    raise RuntimeError("a bug in the checks")


def test_a_bug_in_the_checks_becomes_a_problem_at_the_start_of_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(validate, "check_text", _buggy_check)

    result = validate_text("theme: dark\n")

    assert not result.valid
    assert [(p.line, p.column, p.warning) for p in result.entries] == [(1, 1, False)]
    assert result.entries[0].message == (
        "the configuration could not be checked: a bug in the checks"
    )


def test_a_bug_in_the_checks_is_logged_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(validate, "check_text", _buggy_check)

    with caplog.at_level(logging.ERROR, logger=validate.__name__):
        validate_text("theme: dark\n")

    [record] = [r for r in caplog.records if r.name == validate.__name__]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert isinstance(record.exc_info[1], RuntimeError)


def test_without_a_bug_the_app_gets_what_the_checks_give() -> None:
    text = "theme: dark\nagents:\n  - name: a\n    builtin: demo\n"

    assert validate_text(text) == validate.check_text(text)
