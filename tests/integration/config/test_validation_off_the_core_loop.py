"""A validation that takes its time (a maximal 1 MB text) never holds the core loop: the other
services keep answering meanwhile, for Validate, Save and a reload by the watcher.

The validation is held at its start by a gate, so "meanwhile" is a fact, not a race."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.config import checking
from app.config.validate import Validation
from tests.unit.config.hostile_texts import MIB, long_comment_line
from tests.waiting import EventLog

VALID = "theme: dark\nagents:\n  - name: demo\n    builtin: demo\n"
MAXIMAL = long_comment_line(MIB).replace("theme: dark\n# ", "theme: light\n#")  # still 1 MB


class HeldValidation:
    """Stands for `validate_text`: says when a validation starts, and holds it until released."""

    def __init__(self, real: Callable[..., Validation]) -> None:
        self._real = real
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, *args: Any) -> Validation:
        self.started.set()
        self.release.wait(30)
        return self._real(*args)


class InThread:
    """Runs `call` on a thread of its own, as pywebview runs each call from the page."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.result: object = None
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self._thread.start()

    def _run(self, call: Callable[[], object]) -> None:
        self.result = call()
        self.done.set()


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "sidekicks.yaml"
    path.write_text(VALID, encoding="utf-8")
    return path


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldValidation]:
    gate = HeldValidation(checking.validate_text)
    monkeypatch.setattr(checking, "validate_text", gate)
    yield gate
    gate.release.set()  # whatever happened, let the validation end before the app closes


@pytest.fixture
def app(config_file: Path, held: HeldValidation) -> Iterator[tuple[Sidekicks, EventLog]]:
    log = EventLog()
    sk = Sidekicks(config=config_file)
    held.release.set()  # the start validates too; hold only what the test starts
    sk.start()
    held.release.clear()
    held.started.clear()
    sk.events.subscribe(log)
    try:
        yield sk, log
    finally:
        held.release.set()
        sk.close()


def _answers_while_held(sk: Sidekicks, held: HeldValidation) -> None:
    assert held.started.wait(5), "the validation never started"
    agents = InThread(sk.api.AgentService.List)
    channels = InThread(sk.api.ChannelService.List)
    assert agents.done.wait(5), "AgentService.List waited for the validation"
    assert channels.done.wait(5), "ChannelService.List waited for the validation"
    assert [a.name for a in agents.result] == ["demo"]  # type: ignore[attr-defined]
    assert not held.release.is_set()  # still held: they answered during the validation


def test_the_core_answers_while_validate_checks_a_maximal_text(
    app: tuple[Sidekicks, EventLog], held: HeldValidation
) -> None:
    sk, _ = app
    validating = InThread(lambda: sk.api.ConfigService.Validate(MAXIMAL))
    _answers_while_held(sk, held)
    held.release.set()
    assert validating.done.wait(30)
    assert validating.result == []


def test_the_core_answers_while_save_checks_a_maximal_text(
    app: tuple[Sidekicks, EventLog], held: HeldValidation, config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    saving = InThread(lambda: sk.api.ConfigService.Save(MAXIMAL))
    _answers_while_held(sk, held)
    held.release.set()
    assert saving.done.wait(30)
    assert saving.result == []
    log.wait("config:changed", lambda p: p["valid"], timeout=5, since=mark)
    assert config_file.read_text(encoding="utf-8") == MAXIMAL
    assert sk.api.ConfigService.Current().theme == "light"


def test_the_core_answers_while_the_watcher_checks_a_maximal_edit(
    app: tuple[Sidekicks, EventLog], held: HeldValidation, config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.write_text(MAXIMAL, encoding="utf-8")
    _answers_while_held(sk, held)
    held.release.set()
    log.wait("config:changed", lambda p: p["valid"], timeout=10, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"
