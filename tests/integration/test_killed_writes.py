"""An app killed mid-write leaves a temporary file beside the target; the next start's sweep
(app/core/temp_files.py) removes it, and nothing else: the target keeps its old text, a
look-alike file no log lists stays, and a live app's temporary file is left alone.

Each write runs in a real process (python -c) through the app's own function. It stops at a
point of the write, says so by creating an event file, and waits on its stdin, which the test
never closes; the test waits for the event file, then kills the process (SIGKILL on POSIX,
TerminateProcess on Windows)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.core import temp_files
from app.paths import run_dir
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]

# write_atomic, stopped after the text is written and synced, before the rename.
ATOMIC_WRITE = """
import sys
from pathlib import Path
from app.core import atomic

ready, target = sys.argv[1:]

def stopped(source, target):
    Path(ready).touch()
    sys.stdin.read()

atomic.replace_file = stopped
atomic.write_atomic(Path(target), "new text\\n" * 10_000)
"""

# An agent's fs/write_text_file as SessionWorkspace makes it (located, written from the folder's
# handle), stopped after the text is written and synced, before the rename.
AGENT_WRITE = """
import os, sys
from pathlib import Path
from app.workspace import located_io
from app.workspace.located import located

ready, target = sys.argv[1:]

def stopped(*args, **kwargs):
    Path(ready).touch()
    sys.stdin.read()

os.rename = stopped
with located(Path(target)) as where:
    located_io.write(where, b"new text\\n" * 10_000, create_folders=False)
"""

# A 20 MB export, stopped after its first 10 MB reached the temporary file.
EXPORT = """
import sys
from pathlib import Path
from app.channels.export.saving import write_document

ready, target = sys.argv[1:]

def pieces():
    for _ in range(10):
        yield "x" * 1_000_000
    Path(ready).touch()
    sys.stdin.read()
    for _ in range(10):
        yield "y" * 1_000_000

write_document(target, pieces())
"""


class StoppedWrite:
    """A process stopped in the middle of writing `target` through `program`."""

    def __init__(self, program: str, target: Path) -> None:
        self.ready = target.parent.parent / f"{target.name}.ready"
        self.before = set(os.listdir(target.parent))
        self.target = target
        self.process = subprocess.Popen(
            [sys.executable, "-c", program, str(self.ready), str(target)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
        )
        wait_for(
            lambda: self.ready.exists() or self.process.poll() is not None,
            timeout=30,
            what="the write to stop midway",
        )
        assert self.process.poll() is None, "the writing process ended before its stop"

    def temporary(self) -> Path:
        [name] = set(os.listdir(self.target.parent)) - self.before
        return self.target.parent / name

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)

    def end(self) -> None:
        if self.process.poll() is None:
            self.kill()
        assert self.process.stdin is not None
        self.process.stdin.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The person's folder: a file to overwrite, and a look-alike temporary file of someone
    else's that no log lists."""
    path = tmp_path / "folder"
    path.mkdir()
    (path / "notes.txt").write_text("old text", encoding="utf-8")
    (path / ".notes.txt.abcd1234.tmp").write_text("not ours", encoding="utf-8")
    return path


@contextlib.contextmanager
def written(folder: Path, program: str) -> Iterator[StoppedWrite]:
    write = StoppedWrite(program, folder / "notes.txt")
    try:
        yield write
    finally:
        write.end()


def test_a_killed_atomic_write_leaves_a_temporary_file_the_sweep_removes(folder: Path) -> None:
    with written(folder, ATOMIC_WRITE) as write:
        temporary = write.temporary()
        write.kill()
        assert temporary.read_text(encoding="utf-8") == "new text\n" * 10_000
        assert temp_files.sweep(run_dir()) == [temporary]
    assert sorted(os.listdir(folder)) == [".notes.txt.abcd1234.tmp", "notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "old text"
    assert list(run_dir().glob("temp-*.log")) == [], "the dead app's log is deleted"


@pytest.mark.posix_only("agents' writes rename from a folder handle on POSIX only")
def test_a_killed_agent_write_leaves_a_temporary_file_the_sweep_removes(folder: Path) -> None:
    with written(folder, AGENT_WRITE) as write:
        temporary = write.temporary()
        write.kill()
        assert temporary.stat().st_size == len(b"new text\n" * 10_000)
        assert temp_files.sweep(run_dir()) == [temporary]
    assert sorted(os.listdir(folder)) == [".notes.txt.abcd1234.tmp", "notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "old text"


def test_a_live_apps_temporary_file_is_left_alone(folder: Path) -> None:
    with written(folder, ATOMIC_WRITE) as write:
        temporary = write.temporary()
        [log] = run_dir().glob("temp-*.log")
        assert temp_files.sweep(run_dir()) == [], "its app is alive, in the middle of a write"
        assert temporary.exists()
        assert log.exists()
        write.kill()
        assert temp_files.sweep(run_dir()) == [temporary]


def test_a_killed_20_mb_export_leaves_nothing_after_the_sweep(folder: Path) -> None:
    with written(folder, EXPORT) as write:
        temporary = write.temporary()
        write.kill()
        assert temporary.stat().st_size >= 10_000_000, "killed in the middle of the document"
        assert temp_files.sweep(run_dir()) == [temporary]
    assert sorted(os.listdir(folder)) == [".notes.txt.abcd1234.tmp", "notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "old text"


def test_an_app_that_ends_normally_leaves_no_log(folder: Path) -> None:
    program = "import sys; from pathlib import Path; from app.core.atomic import write_atomic\n"
    program += "write_atomic(Path(sys.argv[1]), 'new text')"
    subprocess.run([sys.executable, "-c", program, str(folder / "notes.txt")], cwd=ROOT, check=True)
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "new text"
    assert list(run_dir().glob("temp-*.log")) == []


def test_the_next_start_removes_what_a_killed_write_left(folder: Path, tmp_path: Path) -> None:
    with written(folder, ATOMIC_WRITE) as write:
        temporary = write.temporary()
        write.kill()
    config = tmp_path / "config.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    with Sidekicks(config=config):
        wait_for(lambda: not temporary.exists(), timeout=10, what="the sweep at start")
    assert sorted(os.listdir(folder)) == [".notes.txt.abcd1234.tmp", "notes.txt"]
