"""Which definition changes a running agent's process would see (and so need a restart)."""

from __future__ import annotations

from typing import Any

import pytest

from app.agents.runtime import AgentRuntime, process_sees_change
from app.config.model import AgentDef


def definition(**extra: Any) -> AgentDef:
    return AgentDef.model_validate({"name": "a", "command": ["agent", "--acp"], **extra})


@pytest.mark.parametrize(
    "change", [{"title": "Alice"}, {"icon": "🤖"}, {"description": "reviews code"}]
)
def test_changing_only_how_the_app_shows_an_agent_is_not_seen_by_its_process(
    change: dict[str, Any],
) -> None:
    assert not process_sees_change(definition(), definition(**change))


@pytest.mark.parametrize(
    "change",
    [
        {"command": ["agent", "--other"]},
        {"env": {"X": "1"}},
        {"cwd": "/tmp"},
        {"folders": ["/tmp"]},
        {"mcpServers": [{"name": "m", "command": "srv"}]},
        {"mode": "plan"},
        {"options": {"model": "x"}},
    ],
)
def test_changing_what_the_process_is_started_with_is_seen(change: dict[str, Any]) -> None:
    assert process_sees_change(definition(), definition(**change))


def test_a_running_agent_is_outdated_only_by_a_change_its_process_sees() -> None:
    runtime = AgentRuntime(definition(), state="ready", started_with=definition())
    runtime.definition = definition(title="Alice", icon="A", description="new")
    assert runtime.outdated is False
    runtime.definition = definition(env={"X": "1"})
    assert runtime.outdated is True
