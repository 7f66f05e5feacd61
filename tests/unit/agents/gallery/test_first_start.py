"""An npx agent's first start: the cache's new folder measured while the agent starts,
`install:progress` sent while it grows, `done` when the start ends; nothing for a package
already cached; agents that run no npx/uvx are not watched."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.agents.gallery import first_start
from app.agents.gallery.first_start import FirstStarts, runner_of
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import AgentStateChanged


@pytest.mark.parametrize(
    ("command", "runner"),
    [
        (["/app/agents.sh", "run", "npx", "-y", "pkg"], "npx"),
        (["npx.cmd", "-y", "pkg"], "npx"),
        (["/usr/bin/uvx", "pkg"], "uvx"),
        (["/app/agents.sh", "claude"], None),
        (["gemini", "--acp"], None),
    ],
)
def test_the_runner_of_a_command(command: list[str], runner: str | None) -> None:
    assert runner_of(command) == runner


def test_a_download_is_reported_while_the_agent_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NPM_CONFIG_CACHE", str(tmp_path / "npm"))
    monkeypatch.setattr(first_start, "EVERY", 0.02)
    npx = tmp_path / "npm" / "_npx"
    (npx / "old").mkdir(parents=True)
    (npx / "old" / "big").write_bytes(b"x" * 5000)  # cached before: not this download
    bus = EventBus()
    progress: list[dict[str, Any]] = []
    bus.subscribe(lambda name, p: progress.append(p) if name == names.INSTALL_PROGRESS else None)
    commands = {"claude": ["/app/agents.sh", "run", "npx", "-y", "@x/claude"], "demo": None}
    starts = FirstStarts(bus, commands.get, lambda command: "claude-acp")
    bus.subscribe(starts.on_event)

    async def scenario() -> None:
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="demo", state="starting"))
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="claude", state="starting"))
        (npx / "new" / "node_modules").mkdir(parents=True)
        (npx / "new" / "node_modules" / "a.js").write_bytes(b"y" * 300)
        while not progress:
            await asyncio.sleep(0.01)  # polls the condition: the watch reports every 20 ms
        (npx / "new" / "node_modules" / "b.js").write_bytes(b"z" * 700)
        while progress[-1]["done"] < 1000:
            await asyncio.sleep(0.01)
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="claude", state="ready"))
        await starts.wait()

    asyncio.run(asyncio.wait_for(scenario(), 10))
    assert progress[0] == {"id": "claude-acp", "agent": "claude", "phase": "download",
                           "done": 300, "total": 0, "error": ""}  # fmt: skip
    assert [p["done"] for p in progress] == [300, 1000, 1000]
    assert progress[-1]["phase"] == "done"


def test_nothing_is_reported_for_a_cached_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv"))
    monkeypatch.setattr(first_start, "EVERY", 0.01)
    bus = EventBus()
    progress: list[dict[str, Any]] = []
    bus.subscribe(lambda name, p: progress.append(p) if name == names.INSTALL_PROGRESS else None)
    starts = FirstStarts(bus, lambda agent: ["uvx", "tool"], lambda command: "")
    bus.subscribe(starts.on_event)
    rounds: list[Path] = []
    listed = first_start._children

    def counted(folders: list[Path]) -> set[Path]:
        rounds.extend(folders)
        return listed(folders)

    monkeypatch.setattr(first_start, "_children", counted)
    (tmp_path / "uv" / "archive-v0" / "cached").mkdir(parents=True)

    async def scenario() -> None:
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="py", state="starting"))
        while len(rounds) < 4:  # the listing at the start, then three rounds with nothing new
            await asyncio.sleep(0.01)
        assert rounds[0] == tmp_path / "uv" / "archive-v0"
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="py", state="error", error="x"))
        await starts.wait()

    asyncio.run(scenario())
    assert progress == []
