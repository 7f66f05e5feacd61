"""Rules of the house that a reviewer would otherwise have to remember."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
CLASS_MAX_LINES = 250


def classes() -> list[tuple[str, int]]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                name = f"{path.relative_to(APP.parent)}::{node.name}"
                found.append((name, node.end_lineno - node.lineno + 1))
    return found


def test_no_class_in_the_app_is_longer_than_250_lines() -> None:
    assert len(classes()) > 50  # the walk found the app's classes
    too_long = [(name, lines) for name, lines in classes() if lines > CLASS_MAX_LINES]
    assert too_long == []


@pytest.mark.parametrize(
    "folder", ["channels", "history", "events", "models", "config", "core", "bridge"]
)
def test_nothing_past_the_acp_boundary_reads_the_sdk_untyped(folder: str) -> None:
    """The core sees typed events (app/acp/updates.py), never `update: Any` + getattr."""
    offenders = []
    for path in (APP / folder).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "session_update" in text or "getattr(update" in text:
            offenders.append(str(path.relative_to(APP.parent)))
    assert offenders == []
