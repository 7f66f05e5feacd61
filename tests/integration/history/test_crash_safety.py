"""A process killed with SIGKILL at any moment loses no finished message and leaves no half
message: a writer is killed at random points many times, and the database is reopened and
checked after each kill."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history.base import History
from app.history.open import open_history
from tests.integration.history.processes import LineReader, finish, start
from tests.integration.history.writer import checksum

KILLS = 60
# How long a SIGKILLed writer may take to be gone: milliseconds as a rule, a generous deadline
# for a loaded machine. (A wait of 60 s that once failed here was not a slow kill: the `ended`
# line had come, glued to an id the writer was cut in; writers.py now ends that line first.)
KILLED_WITHIN = 60.0


class ForkedWriters:
    """Writers forked by writers.py (POSIX): one Python start for all the kills."""

    def __init__(self, config_path: Path) -> None:
        self.process = start("writers.py", str(config_path))
        self.reader = LineReader(self.process)

    def run_and_kill(self, channel_id: str, rng: random.Random) -> list[str]:
        """As run_writer_and_kill_it, with a writer forked from writers.py."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{channel_id} {rng.randrange(1 << 30)}\n".encode())
        self.process.stdin.flush()
        (started,) = self.reader.lines(1)
        pid = int(started.removeprefix("started "))
        printed = self.reader.lines(rng.randint(1, 25))
        os.kill(pid, signal.SIGKILL)
        rest: list[str] = []
        while (line := self.reader.lines(1, timeout=KILLED_WITHIN)[0]) != f"ended {pid}":
            rest.append(line)
        # The line writers.py ended before its `ended` line: empty, or the one the writer was
        # killed in (an id without its new line, which then counts as not printed).
        cut = rest.pop()
        assert cut == "" or cut.isalnum(), cut
        said = printed + rest
        assert not any(line.startswith(("started ", "ended ")) for line in said), said
        return said

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()  # writers.py ends
        self.reader.rest()
        self.reader.close()
        finish(self.process)


def run_writer_and_kill_it(config_path: Path, channel_id: str, rng: random.Random) -> list[str]:
    """Starts a writer, lets it report a random number of messages, SIGKILLs it mid-stream and
    returns every id it printed (including those still in the pipe when it died)."""
    writer = start("writer.py", str(config_path), channel_id, str(rng.randrange(1 << 30)))
    reader = LineReader(writer)
    try:
        printed = reader.lines(rng.randint(1, 25))
        writer.kill()  # SIGKILL on POSIX, TerminateProcess on Windows
        writer.wait(timeout=KILLED_WITHIN)
        return printed + reader.rest()
    finally:
        if writer.poll() is None:  # the test failed before the kill
            writer.kill()
        reader.close()
        finish(writer)


def check_channel(history: History, channel_id: str, printed: list[str]) -> list[str]:
    """Every printed id is there, in order, from the first message; at most one more message
    (committed, killed before its id was printed); every text is whole. Returns the ids."""
    messages = history.messages_after(channel_id, "", 1_000_000)
    stored = [message.id for message in messages]
    assert stored[: len(printed)] == printed, "a finished message is missing"
    assert len(stored) - len(printed) in (0, 1), "messages appeared that were never written"
    for number, message in enumerate(messages):
        position, digest, body = message.parts[0].text.split(":")
        assert int(position) == number, f"gap before message {number}"
        assert digest == checksum(number, body), f"message {number} is damaged"
    return stored


@pytest.mark.slow
def test_a_writer_killed_at_random_moments_loses_no_message_and_leaves_no_half_one(
    tmp_path: Path,
) -> None:
    config_path = tmp_path / "config.yaml"
    rng = random.Random(os.environ.get("HISTORY_CRASH_SEED", "sidekicks"))
    kept: dict[str, list[str]] = {}  # the earlier writers' channels: they must not change
    # POSIX: each writer is forked (the same kill, without a Python start each time).
    forked = ForkedWriters(config_path) if hasattr(os, "fork") else None
    try:
        for _ in range(KILLS):
            channel_id = new_id()
            if forked is not None:
                printed = forked.run_and_kill(channel_id, rng)
            else:
                printed = run_writer_and_kill_it(config_path, channel_id, rng)
            history = open_history(config_path)
            try:
                assert history.problem == "", "the killed writer's lock was not released"
                for earlier, ids in kept.items():
                    assert check_channel(history, earlier, ids) == ids
                kept[channel_id] = check_channel(history, channel_id, printed)
            finally:
                history.close()
    finally:
        if forked is not None:
            forked.close()
