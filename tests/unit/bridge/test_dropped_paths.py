"""The paths of dropped files, as pywebview's backend recorded them, given to the page by name."""

from __future__ import annotations

from typing import Any

from app.bridge.dropped_paths import KEPT, install, take


def recorded(*entries: tuple[str, str]) -> dict[str, Any]:
    return {"num_listeners": 0, "paths": list(entries)}


def test_each_dropped_file_gets_its_recorded_path_once_and_unknown_names_get_nothing() -> None:
    state = recorded(
        ("notes.md", "/home/me/notes.md"), ("my%20photo.png", "/home/me/my%20photo.png")
    )
    assert take(["my photo.png", "notes.md", "other.txt"], state) == [
        "/home/me/my photo.png",
        "/home/me/notes.md",
        "",
    ]
    assert take(["notes.md"], state) == [""]
    assert state["paths"] == []


def test_the_newest_drop_of_a_name_wins_and_old_unclaimed_drops_are_forgotten() -> None:
    state = recorded(("a.txt", "/old/a.txt"), ("a.txt", "/new/a.txt"))
    assert take(["a.txt"], state) == ["/new/a.txt"]
    state = recorded(*[(f"f{i}", f"/f{i}") for i in range(KEPT + 10)])
    assert take(["f0", f"f{KEPT + 9}"], state) == ["", f"/f{KEPT + 9}"]
    assert len(state["paths"]) == KEPT - 1


def test_installing_turns_the_backends_recording_on() -> None:
    from webview.dom import _dnd_state

    before = _dnd_state["num_listeners"]
    try:
        install()
        assert _dnd_state["num_listeners"] >= 1
    finally:
        _dnd_state["num_listeners"] = before
