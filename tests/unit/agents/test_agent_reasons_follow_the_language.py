"""Item 10 of #16: a reason stored before a language switch (an agent's crash, a failed start)
follows the switch: kept as its message and values (app/i18n/text.py), said in the language
current when the agent's info is read, and re-announced (`agent:state`) when the language
changes. Real fake agents, a real configuration file edited on disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.errors import UserError
from app.i18n import N_, set_language
from app.i18n.text import lazy
from app.models.agents import AgentInfo
from tests.agents import agent_yaml, write_config
from tests.waiting import EventLog, wait_for

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=5.0)
CRASH_EN = "the agent stopped by itself (exit code 4)"
CRASH_FR = "l’agent s’est arrêté de lui-même (code de sortie 4)"
START_EN = "the agent exited during start (exit code 3)"
START_FR = "l’agent s’est arrêté pendant son démarrage (code de sortie 3)"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")  # the language is the process's: the next tests read English


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Sidekicks, EventLog, Path]]:
    config = write_config(
        tmp_path / "agents.yaml",
        agent_yaml("crasher", "exit-after-init")
        + agent_yaml("broken", "crash-on-start")
        + agent_yaml("homeless", cwd=str(tmp_path / "gone")),
        extra="language: en\n",
    )
    sk = Sidekicks(config=config, tuning=FAST).start()
    log = EventLog()
    sk.events.subscribe(log)
    try:
        yield sk, log, config
    finally:
        sk.close()


def info(sk: Sidekicks, name: str) -> AgentInfo:
    return next(a for a in sk.api.AgentService.List() if a.name == name)


def switch(config: Path, log: EventLog, language: str) -> int:
    """Writes `language` into the file (as Settings does) and waits until it is in force."""
    mark = log.mark()
    text = config.read_text(encoding="utf-8")
    config.write_text(
        "\n".join(
            f"language: {language}" if line.startswith("language:") else line
            for line in text.splitlines()
        )
        + "\n",
        encoding="utf-8",
    )
    log.wait("config:changed", since=mark, timeout=5)
    return mark


def test_a_crash_reason_follows_a_switch_to_french_and_back(app) -> None:
    sk, log, config = app
    sk.api.AgentService.Start("crasher")
    wait_for(lambda: info(sk, "crasher").state == "error", what="the crash")
    assert info(sk, "crasher").error.startswith(CRASH_EN)

    mark = switch(config, log, "fr")
    french = info(sk, "crasher").error
    assert french.startswith(CRASH_FR)
    assert "fake agent ready" in french  # the agent's own stderr lines, as they were
    announced = [p for p in log.named("agent:state", since=mark) if p["agent"] == "crasher"]
    assert announced and announced[-1]["error"] == french

    switch(config, log, "en")
    assert info(sk, "crasher").error.startswith(CRASH_EN)


def test_a_failed_start_reason_follows_the_language_and_the_refusal_was_said_in_its_own(
    app,
) -> None:
    sk, log, config = app
    with pytest.raises(UserError, match=r"exited during start \(exit code 3\)"):
        sk.api.AgentService.Start("broken")
    switch(config, log, "fr")
    error = info(sk, "broken").error
    assert error.startswith(START_FR)
    assert "fatal: the fake agent cannot start" in error
    with pytest.raises(UserError, match="pendant son démarrage"):
        sk.api.AgentService.Start("broken")  # a new refusal speaks the new language
    switch(config, log, "en")
    assert info(sk, "broken").error.startswith(START_EN)


def test_a_missing_working_folder_is_said_in_the_language_current_when_it_is_read(app) -> None:
    sk, log, config = app
    with pytest.raises(UserError, match="does not exist"):
        sk.api.AgentService.Start("homeless")
    switch(config, log, "fr")
    assert "n’existe pas" in info(sk, "homeless").error
    switch(config, log, "en")
    assert "does not exist" in info(sk, "homeless").error


def test_a_language_switch_announces_only_the_agents_in_error(app) -> None:
    sk, log, config = app
    with pytest.raises(UserError):
        sk.api.AgentService.Start("broken")
    mark = switch(config, log, "fr")
    announced = {p["agent"] for p in log.named("agent:state", since=mark)}
    assert announced == {"broken"}


def test_a_kept_sentence_says_its_values_and_nested_sentences_in_the_current_language() -> None:
    inner = lazy(N_("the agent closed its output but kept running"))
    text = lazy(N_("the agent refused to start: {error}"), error=inner).with_detail("raw stderr")
    set_language("en")
    assert (
        str(text)
        == "the agent refused to start: the agent closed its output but kept running\nraw stderr"
    )
    set_language("fr")
    assert str(text) == (  # the detail (an agent's own lines) is never translated
        "l’agent a refusé de démarrer\u00a0: l’agent a fermé sa sortie mais continuait de tourner"
        "\nraw stderr"
    )
