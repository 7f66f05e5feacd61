"""The temporary files of atomic writes (app/core/temp_files.py): listed in this process's log
before they exist, forgotten once gone, and a dead process's leftovers removed by the sweep, and
nothing else: not a file by another name, not a link, not a folder, not what a live process
lists."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.core import leftovers, temp_files
from app.core.atomic import write_atomic
from app.paths import run_dir


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of the person's (tmp_path also holds the test's user config folder)."""
    path = tmp_path / "folder"
    path.mkdir()
    return path


def logs() -> list[Path]:
    return sorted(run_dir().glob("temp-*.log")) if run_dir().is_dir() else []


def listed() -> list[str]:
    """What this process's logs list: the paths added and not removed since."""
    paths: list[str] = []
    for log in logs():
        for line in log.read_text().splitlines():
            path = json.loads(line[1:])
            paths = [*paths, path] if line[0] == "+" else [p for p in paths if p != path]
    return paths


def dead_log(*lines: tuple[str, Path]) -> Path:
    """A log as a killed process leaves it: its lines, and no lock held."""
    run_dir().mkdir(parents=True, exist_ok=True)
    path = run_dir() / "temp-999999-0badc0de.log"
    path.write_text("".join(f"{sign}{json.dumps(str(p))}\n" for sign, p in lines))
    return path


def test_the_path_is_listed_before_the_file_exists_and_forgotten_once_gone(folder: Path) -> None:
    temporary = folder / ".notes.txt.0123456789abcdef.tmp"
    with temp_files.tracked(temporary):
        [log] = logs()
        assert log.read_text() == f"+{json.dumps(str(temporary))}\n"
        temporary.write_text("new")
        temporary.rename(folder / "notes.txt")
    [log] = logs()
    assert log.read_text() == "", "nothing listed: the log starts again from nothing"


def test_a_temporary_file_left_in_place_stays_listed(folder: Path) -> None:
    temporary = folder / ".notes.txt.0123456789abcdef.tmp"
    with temp_files.tracked(temporary):
        temporary.write_text("a cleanup that failed")
    assert listed() == [str(temporary)]
    assert temp_files.sweep(run_dir()) == [], "this process is alive: its log is not swept"
    assert temporary.exists()


def test_a_name_already_taken_is_never_listed(folder: Path) -> None:
    theirs = folder / ".notes.txt.0123456789abcdef.tmp"
    theirs.write_text("someone else's")
    with pytest.raises(FileExistsError), temp_files.tracked(theirs):
        os.open(theirs, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    assert logs() == []
    assert theirs.read_text() == "someone else's"


def test_a_name_any_character_survives_the_log(folder: Path) -> None:
    odd = folder / 'a\nb "c" é\\.txt'
    temporary = folder / temp_files.temporary_name(odd.name)
    temporary.write_text("left by a killed write")
    dead_log(("+", temporary))
    assert temp_files.sweep(run_dir()) == [temporary]
    assert not temporary.exists()


def test_created_beside_leaves_nothing_when_the_write_fails(folder: Path) -> None:
    target = folder / "notes.txt"

    def write_half() -> None:
        with temp_files.created_beside(target) as (out, _path):
            out.write(b"half")
            raise OSError(28, "disk full")

    with pytest.raises(OSError, match="disk full"):
        write_half()
    assert os.listdir(folder) == []
    assert listed() == []


def test_an_atomic_write_leaves_no_log(folder: Path) -> None:
    write_atomic(folder / "notes.txt", "text")
    assert (folder / "notes.txt").read_text() == "text"
    assert os.listdir(folder) == ["notes.txt"]
    assert listed() == []


def test_the_sweep_removes_only_temporary_files_the_log_still_lists(folder: Path) -> None:
    left = folder / ".notes.txt.aaaaaaaa.tmp"
    renamed_then_reused = folder / ".notes.txt.bbbbbbbb.tmp"
    look_alike = folder / ".notes.txt.cccccccc.tmp"
    person_file = folder / "notes.txt"
    a_folder = folder / ".dir.dddddddd.tmp"
    for path in (left, renamed_then_reused, look_alike, person_file):
        path.write_text("x")
    a_folder.mkdir()
    log = dead_log(
        ("+", left),
        ("+", renamed_then_reused),
        ("-", renamed_then_reused),
        ("+", person_file),  # a damaged log: not a temporary file's name
        ("+", a_folder),
        ("+", folder / ".gone.txt.eeeeeeee.tmp"),  # renamed before the kill
        ("+", Path("relative") / ".x.ffffffff.tmp"),
    )
    assert temp_files.sweep(run_dir()) == [left]
    assert sorted(os.listdir(folder)) == sorted(
        p.name for p in (renamed_then_reused, look_alike, person_file, a_folder)
    )
    assert a_folder.is_dir()
    assert not log.exists()


@pytest.mark.posix_only("symbolic links without privileges")
def test_the_sweep_follows_no_link(folder: Path) -> None:
    precious = folder / "elsewhere" / "precious.txt"
    precious.parent.mkdir()
    precious.write_text("the person's")
    link = folder / ".notes.txt.aaaaaaaa.tmp"
    link.symlink_to(precious)
    (folder / "work").mkdir()
    swapped = folder / "work" / "folder"
    swapped.symlink_to(precious.parent)  # a folder on the way replaced by a link
    decoy = precious.parent / ".x.bbbbbbbb.tmp"
    decoy.write_text("the person's too")
    dead_log(("+", link), ("+", swapped / decoy.name))
    assert temp_files.sweep(run_dir()) == []
    assert link.is_symlink()
    assert precious.read_text() == "the person's"
    assert decoy.read_text() == "the person's too"


def test_an_empty_log_is_left_until_its_owner_had_time_to_lock_it(folder: Path) -> None:
    log = dead_log()
    assert temp_files.sweep(run_dir()) == []
    assert log.exists(), "just created: its owner may be about to lock it"
    old = log.stat().st_mtime - temp_files.EMPTY_LOG_AGE - 1
    os.utime(log, (old, old))
    temp_files.sweep(run_dir())
    assert not log.exists()


def test_the_sweep_at_start_runs_beside_the_start(folder: Path) -> None:
    left = folder / ".notes.txt.aaaaaaaa.tmp"
    left.write_text("x")
    dead_log(("+", left))
    thread = leftovers.sweep_in_background()
    assert thread is not None
    thread.join(10)
    assert not left.exists()
