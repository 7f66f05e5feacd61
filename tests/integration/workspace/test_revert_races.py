"""Reverts racing an agent's writes, and a revert killed half way (issue 24, items 7 and 8),
through the real app, its real history and a real agent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from app.core.errors import UserError
from app.models.changes import FileChange
from tests.integration.workspace.conftest import Desk
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[3]


def walk_chain(records: list[tuple[FileChange, str | None, str]], first: str) -> str:
    """Walks one file's records oldest first as the person and the agent made them: each write
    replaced the text left by the newest change not reverted before it (reverts undo the newest
    first). Returns the text the changes not reverted leave; fails on a record out of the chain."""
    stack: list[tuple[FileChange, str]] = []
    for change, before, after in records:
        while (stack[-1][1] if stack else first) != before:
            assert stack, f"{change.id}: its before {before!r} follows no earlier text"
            popped, _text = stack.pop()
            assert popped.reverted, f"{change.id} replaced {before!r}, not {popped.id}'s text"
        stack.append((change, after))
    while stack and stack[-1][0].reverted:  # reverted after the last write
        stack.pop()
    assert all(not c.reverted for c, _ in stack), "a reverted change is still in the chain"
    return stack[-1][1] if stack else first


def test_reverts_racing_an_agent_s_writes_keep_every_record_in_the_chain(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    # In a folder the checkpoints ignore (node_modules/), so that each write stays a record
    # of its own when the answer ends (elsewhere they are merged into one per file).
    target = desk.work / "node_modules" / "race.txt"
    target.parent.mkdir()
    target.write_text("v0", encoding="utf-8")
    changes = desk.sk.api.ChangesService
    mark = desk.send(room, [{"write": str(target), "text": f"v{i}"} for i in range(1, 301)])
    reverted = 0
    finished = threading.Event()

    def results() -> None:
        desk.results(room, "writer", mark)
        finished.set()

    waiter = threading.Thread(target=results)
    waiter.start()
    while not finished.is_set():  # the person reverts the newest change, again and again
        newest = [c for c in changes.Changes(room) if not c.reverted][-1:]
        try:
            changes.Revert(room, [c.id for c in newest])
            reverted += bool(newest)
        except UserError:
            pass  # the agent wrote again since: refused whole, as it should be
    waiter.join(timeout=60)
    records = changes.Changes(room)
    assert len(records) == 300 and reverted > 0
    history = desk.sk._parts.history
    texts = [history.change_texts(room, c.id) for c in records]
    chain = [(c, t.before, t.after) for c, t in zip(records, texts, strict=True) if t]
    left = walk_chain(chain, "v0")
    assert target.read_text(encoding="utf-8") == left
    changes.Revert(room, [c.id for c in records if not c.reverted])  # everything
    assert target.read_text(encoding="utf-8") == "v0"


KILLED_REVERT = """
import os, sys, threading
from pathlib import Path
from app import Sidekicks
from app.workspace import located_io

config, room, marker = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
real_write = located_io.write
written = []

def write(location, data, *, create_folders, executable=False):
    real_write(location, data, create_folders=create_folders, executable=executable)
    written.append(location.real)
    if len(written) == 10:  # half way: say so, then wait for the kill
        marker.write_text("10", encoding="utf-8")
        threading.Event().wait()

located_io.write = write
sk = Sidekicks(config=config).start()
changes = sk.api.ChangesService
changes.Revert(room, [c.id for c in changes.Changes(room)])
"""


def test_a_revert_killed_half_way_is_finished_at_the_next_start(
    open_desk: Callable[[], Desk], tmp_path: Path
) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    paths = [desk.work / f"f{i:02}.txt" for i in range(20)]
    for path in paths:
        path.write_text(f"{path.name} v0", encoding="utf-8")
    writes = [{"write": str(p), "text": f"{p.name} v1"} for p in paths]
    assert all(r.get("ok") for r in desk.run(room, writes))
    config = desk.sk.config_path
    desk.sk.close()

    marker = tmp_path / "half-way"
    app = subprocess.Popen(
        [sys.executable, "-c", KILLED_REVERT, str(config), room, str(marker)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        wait_for(marker.exists, timeout=60, what="the revert to be half done")
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=30)
    assert sum(p.read_text(encoding="utf-8").endswith("v0") for p in paths) == 10

    again = open_desk()  # the next start finishes what was begun
    records = again.sk.api.ChangesService.Changes(room)
    assert all(c.reverted for c in records)
    assert [p.read_text(encoding="utf-8") for p in paths] == [f"{p.name} v0" for p in paths]
    history = again.sk._parts.history
    assert not history.value("revert-in-progress")
    # A later write and its revert work as ever: nothing is refused for good.
    assert again.run(room, [{"write": str(paths[19]), "text": "v2"}])[0]["ok"]
    [latest] = [c for c in again.sk.api.ChangesService.Changes(room) if not c.reverted]
    again.sk.api.ChangesService.Revert(room, [latest.id])
    assert json.dumps(paths[19].read_text(encoding="utf-8")) == json.dumps("f19.txt v0")
