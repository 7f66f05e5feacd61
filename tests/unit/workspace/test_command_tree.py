"""A command ends through its process tree (app/core/process_tree.py: the POSIX group, or the
Job Object on Windows): what it left running after it ended is still asked, then made, to end."""

from __future__ import annotations

import asyncio
import sys

import pytest

from app.workspace import commands
from app.workspace.commands import Command


class LeftoverTree:
    """A tree whose command ended but left a child that ignores the soft request."""

    pid = 0

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.left = True

    def signal_soft(self) -> None:
        self.calls.append("soft")

    def kill(self) -> None:
        self.calls.append("kill")
        self.left = False

    def alive(self) -> bool:
        return self.left

    def close(self) -> None:
        self.calls.append("close")


def test_a_command_that_ended_leaving_a_child_is_killed_through_its_tree_and_the_tree_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(commands, "KILL_GRACE", 0.1)
    tree = LeftoverTree()

    async def main() -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "pass", stdout=asyncio.subprocess.PIPE
        )
        command = Command(proc, None, lambda data: None, lambda ended: None, tree)
        assert (await command.wait()).exit_code == 0
        assert tree.calls == []  # ended, its child still there: nothing done until asked
        await command.kill()

    asyncio.run(main())
    assert tree.calls == ["soft", "kill", "close"]
    assert not tree.alive()
