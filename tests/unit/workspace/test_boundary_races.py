"""A folder swapped for a link while an agent writes (issue 24, item 1): the write lands in the
folder that was checked, or is asked about as the outside file it really is, never outside
unasked. Real files, a real flipping thread, the real SessionWorkspace."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from app.acp.workspace import WorkspaceError
from app.core.ids import new_id
from app.events.bus import EventBus
from app.history.open import open_history
from app.workspace import located_io
from app.workspace.app_files import AppFiles
from app.workspace.changes import ChangeLog
from app.workspace.located import located
from app.workspace.roots import Roots
from app.workspace.session_workspace import OutsideWrite, SessionWorkspace

pytestmark = pytest.mark.posix_only("openat-style walks and symlinks are POSIX here")


class RejectingHost:
    """The person, who rejects every outside write."""

    def __init__(self) -> None:
        self.asked: list[OutsideWrite] = []

    def answer_message_id(self) -> str:
        return "answer"

    async def allow_outside_write(self, write: OutsideWrite) -> bool:
        self.asked.append(write)
        return False

    def conflict_notice(self, text: str) -> None:
        pass


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    work, outside = tmp_path / "work", tmp_path / "outside"
    (work / "flip").mkdir(parents=True)
    outside.mkdir()
    return work, outside


def a_workspace(tmp_path: Path, work: Path, host: RejectingHost) -> SessionWorkspace:
    history = open_history(tmp_path / "config.yaml")
    changes = ChangeLog(EventBus(), lambda: history, lambda: AppFiles.of(None))
    return SessionWorkspace(
        channel=new_id(),
        agent="writer",
        roots=Roots([work]),
        app_files=AppFiles.of(None),
        changes=changes,
        host=host,
    )


def test_a_folder_flipped_to_a_link_during_writes_never_lets_one_land_outside(
    tmp_path: Path, folders: tuple[Path, Path]
) -> None:
    work, outside = folders
    flip, kept = work / "flip", work / "flip.real"
    host = RejectingHost()
    workspace = a_workspace(tmp_path, work, host)
    stop = threading.Event()

    made = iter(range(10**6))

    def step(action: Callable[[], None]) -> None:
        """One step of the flip; while `flip` is missing a write may make it (inside the
        agent's folder, it may): that folder is put aside and the step done again."""
        while True:
            try:
                return action()
            except OSError:
                os.rename(flip, work / f"made-{next(made)}")

    def flipper() -> None:  # the agent's own process, swapping its folder for a link
        while not stop.is_set():
            os.rename(flip, kept)
            step(lambda: os.symlink(outside, flip))
            os.unlink(flip)
            step(lambda: os.rename(kept, flip))

    async def writes() -> list[str]:
        errors = []
        for i in range(200):
            try:
                await workspace.write_text_file(str(flip / f"f{i}.txt"), f"text {i}")
            except WorkspaceError as error:
                errors.append(str(error))
        return errors

    thread = threading.Thread(target=flipper)
    thread.start()
    try:
        errors = asyncio.run(writes())
    finally:
        stop.set()
        thread.join(timeout=10)
    assert os.listdir(outside) == []  # not one write landed outside
    # Every write asked about was asked as the outside file it really led to, via the link.
    strays = [w for w in host.asked if not (w.real.parent == outside and w.through_link)]
    assert strays == []
    assert len(errors) >= len(host.asked)  # each of them refused (and maybe a vanished part)
    written = list(work.rglob("*.txt"))
    assert len(written) + len(errors) == 200  # each write landed in the agent's folder, or failed


def test_a_write_lands_in_the_folder_checked_even_if_a_link_replaces_it_after(
    folders: tuple[Path, Path],
) -> None:
    work, outside = folders
    flip = work / "flip"
    with located(flip / "x.txt") as where:
        assert where.real == flip / "x.txt" and not where.through_link
        flip.rename(work / "moved")  # after the check: the folder goes, a link takes its name
        flip.symlink_to(outside)
        located_io.write(where, b"data", create_folders=False)
    assert os.listdir(outside) == []
    assert (work / "moved" / "x.txt").read_bytes() == b"data"


def test_a_missing_folder_made_a_link_before_it_is_created_refuses_the_write(
    folders: tuple[Path, Path],
) -> None:
    work, outside = folders
    with located(work / "new" / "deep" / "x.txt") as where:
        assert where.missing == ("new", "deep")
        (work / "new").symlink_to(outside)  # planted between the look and the making
        with pytest.raises(WorkspaceError, match="a link appeared on the way"):
            located_io.write(where, b"data", create_folders=True)
    assert os.listdir(outside) == []


def test_a_file_swapped_for_a_link_between_the_check_and_the_write_is_refused(
    folders: tuple[Path, Path],
) -> None:
    work, outside = folders
    (outside / "target.txt").write_text("theirs", encoding="utf-8")
    with located(work / "mine.txt") as where:
        (work / "mine.txt").symlink_to(outside / "target.txt")
        with pytest.raises(WorkspaceError, match="a link appeared on the way"):
            located_io.write(where, b"data", create_folders=False)
    assert (outside / "target.txt").read_text(encoding="utf-8") == "theirs"


def test_a_part_vanishing_while_the_path_is_walked_is_an_error_for_the_agent(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    work, _outside = folders
    (work / "flip" / "link").symlink_to("elsewhere")
    real_readlink = os.readlink

    def vanishing(path: str, *, dir_fd: int | None = None) -> str:
        os.unlink(path, dir_fd=dir_fd)  # gone between the look and the read of the link
        return real_readlink(path, dir_fd=dir_fd)

    monkeypatch.setattr(os, "readlink", vanishing)
    vanished = pytest.raises(WorkspaceError, match="changed while it was being opened")
    with vanished as caught, located(work / "flip" / "link" / "x.txt"):
        pass
    assert caught.value.kind == "failed"


def test_links_are_followed_to_their_real_path_and_loops_are_refused(
    folders: tuple[Path, Path],
) -> None:
    work, outside = folders
    (work / "flip" / "up").symlink_to("../..")  # relative, climbing out
    with located(work / "flip" / "up" / "outside" / "x.txt") as where:
        assert where.real == outside / "x.txt" and where.through_link
    (work / "a").symlink_to(work / "b")
    (work / "b").symlink_to(work / "a")
    with pytest.raises(WorkspaceError, match="too many links"), located(work / "a" / "x.txt"):
        pass
