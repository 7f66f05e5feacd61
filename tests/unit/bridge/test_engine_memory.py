"""The engine switch that lets the page give back its start-up's memory
(app/bridge/engine_memory.py, issue 29 memory): added for QtWebEngine, a person's own V8
switches kept, and the person's value given back to the programs started for them."""

from __future__ import annotations

from app import paths
from app.bridge.engine_memory import EXPOSE_COLLECTOR, expose_collector

FLAGS = paths.ENGINE_FLAGS


def test_the_switch_is_added_to_the_persons_flags_once() -> None:
    env = {FLAGS: "--force-prefers-reduced-motion"}
    assert expose_collector(env)
    assert env[FLAGS] == f"--force-prefers-reduced-motion {EXPOSE_COLLECTOR}"
    assert not expose_collector(env)  # a second window start adds nothing
    assert env[FLAGS].count("--js-flags") == 1


def test_with_no_flags_the_switch_is_the_only_one() -> None:
    env: dict[str, str] = {}
    assert expose_collector(env)
    assert env[FLAGS] == EXPOSE_COLLECTOR


def test_a_persons_own_v8_switches_are_kept_as_they_are() -> None:
    env = {FLAGS: "--js-flags=--max-lazy --disable-gpu"}
    assert not expose_collector(env)
    assert env == {FLAGS: "--js-flags=--max-lazy --disable-gpu"}


def test_the_programs_started_for_the_person_get_their_value_back() -> None:
    had = {FLAGS: "--disable-gpu", "PATH": "/bin"}
    expose_collector(had)
    assert paths.child_environment(had, frozen=False) == {FLAGS: "--disable-gpu", "PATH": "/bin"}

    had_none = {"PATH": "/bin"}
    expose_collector(had_none)
    assert FLAGS in had_none
    assert paths.child_environment(had_none, frozen=False) == {"PATH": "/bin"}
