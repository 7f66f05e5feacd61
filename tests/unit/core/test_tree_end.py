"""process_tree.end, the sequence every kill uses, on a made-up tree: soft first, then kills
repeated while something is left, and a bound when even SIGKILL does not end it."""

from __future__ import annotations

import asyncio

import pytest

from app.core import process_tree


class Tree:
    """A tree that ends after `lasts` kills (never, with None)."""

    pid = 42

    def __init__(self, lasts: int | None) -> None:
        self.calls: list[str] = []
        self.lasts = lasts

    def signal_soft(self) -> None:
        self.calls.append("soft")

    def kill(self) -> None:
        self.calls.append("kill")

    def alive(self) -> bool:
        return self.lasts is None or self.calls.count("kill") < self.lasts

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process_tree, "KILL_AGAIN_SECONDS", 0.05)
    monkeypatch.setattr(process_tree, "KILL_PATIENCE", 0.5)


def test_a_tree_that_forks_while_killed_is_killed_again_until_it_is_gone() -> None:
    tree = Tree(lasts=3)
    asyncio.run(process_tree.end(tree, grace=0.05))
    assert tree.calls == ["soft", "kill", "kill", "kill"]


def test_a_tree_gone_already_gets_no_signal() -> None:
    tree = Tree(lasts=0)
    asyncio.run(process_tree.end(tree, grace=0.05))
    assert tree.calls == []


def test_a_tree_that_outlives_every_kill_does_not_hold_the_stop_for_ever(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tree = Tree(lasts=None)

    async def main() -> None:
        async with asyncio.timeout(5):
            await process_tree.end(tree, grace=0.05)

    asyncio.run(main())
    assert tree.calls[0] == "soft" and tree.calls.count("kill") >= 2
    assert "still there" in caplog.text
