"""Reading and writing rules (app/workspace/files.py, located_io.py) and the agent's folders
(roots.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app.acp.workspace import WorkspaceError
from app.workspace import files, located_io
from app.workspace.located import located
from app.workspace.roots import Roots


def read_bytes(path: Path) -> bytes:
    """An agent's read as SessionWorkspace makes it."""
    with located(path) as where:
        return located_io.read(where)


def current_bytes(path: Path) -> bytes | None:
    with located(path) as where:
        return located_io.current(where)


def write_atomic(path: Path, data: bytes, create_folders: bool = False) -> None:
    """An agent's write as SessionWorkspace makes it: located, then written there."""
    with located(path) as where:
        located_io.write(where, data, create_folders=create_folders)


def test_a_relative_path_is_refused_as_invalid_with_a_sentence() -> None:
    with pytest.raises(WorkspaceError, match="not an absolute path") as caught:
        files.absolute("src/main.py")
    assert caught.value.kind == "invalid" and caught.value.code == -32602


def test_line_and_limit_select_lines_counted_from_one() -> None:
    text = "a\nb\nc\nd"
    assert files.window(text, None, None) == text
    assert files.window(text, 2, None) == "b\nc\nd"
    assert files.window(text, 2, 2) == "b\nc\n"
    assert files.window(text, None, 1) == "a\n"
    assert files.window(text, 9, 3) == ""
    with pytest.raises(WorkspaceError, match="line must be 1 or more"):
        files.window(text, 0, None)
    with pytest.raises(WorkspaceError, match="limit must be 0 or more"):
        files.window(text, 1, -1)


def test_a_binary_file_and_another_encoding_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="binary"):
        files.decode(tmp_path / "x.bin", b"abc\x00def")
    with pytest.raises(
        WorkspaceError, match=r"x\.txt is not UTF-8 text \(invalid byte at offset 3"
    ):
        files.decode(tmp_path / "x.txt", "abcé".encode("latin-1"))
    assert files.decode(tmp_path / "ok.txt", "héllo ✓".encode()) == "héllo ✓"


def test_missing_files_and_folders_are_told_apart(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError) as missing:
        read_bytes(tmp_path / "nope")
    assert missing.value.kind == "not_found"
    assert current_bytes(tmp_path / "nope") is None
    with pytest.raises(WorkspaceError, match="is a folder") as folder:
        read_bytes(tmp_path)
    assert folder.value.kind == "invalid"


@pytest.mark.posix_only("POSIX mode bits: Windows keeps only a read-only flag")
def test_an_atomic_write_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    target = folder / "tool.sh"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o750)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.stat(target).st_mode & 0o777 == 0o750
    assert sorted(p.name for p in folder.iterdir()) == ["tool.sh"]


@pytest.mark.posix_only("POSIX mode bits: Windows keeps only a read-only flag")
def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    target = tmp_path / "fresh.txt"
    write_atomic(target, b"x")
    umask = os.umask(0o022)
    os.umask(umask)
    assert os.stat(target).st_mode & 0o777 == 0o666 & ~umask


def test_a_folder_is_told_apart_where_opening_it_is_refused_as_on_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def windows_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.path.isdir(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    from app.workspace import located as located_module

    monkeypatch.setattr(located_module, "WALKS_HANDLES", False)  # as on Windows: by path
    monkeypatch.setattr(os, "open", windows_open)
    with pytest.raises(WorkspaceError, match="is a folder") as folder:
        read_bytes(tmp_path)
    assert folder.value.kind == "invalid"


def test_an_atomic_write_without_fchmod_as_on_windows_still_replaces_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "fchmod", raising=False)  # Windows, before Python 3.13
    (tmp_path / "work").mkdir()
    target = tmp_path / "work" / "notes.txt"
    target.write_bytes(b"old")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["notes.txt"]


def test_roots_refuse_a_dot_dot_escape_and_a_sibling_sharing_a_prefix(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    roots = Roots([work])
    assert roots.contain(work / "a" / "new.txt")
    assert not roots.contain(work / ".." / "elsewhere" / "x")
    assert not roots.contain(tmp_path / "work-sibling" / "x")  # a prefix is not a parent


def test_writing_over_a_folder_or_into_a_missing_one_fails_with_the_path(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="is a folder"):
        write_atomic(tmp_path, b"x")
    with pytest.raises(WorkspaceError, match="folder does not exist") as caught:
        write_atomic(tmp_path / "no" / "such.txt", b"x")
    assert caught.value.kind == "not_found"


@pytest.mark.posix_only("making a symlink needs a privilege on Windows")
def test_roots_contain_their_files_but_not_a_dot_dot_or_symlink_escape(tmp_path: Path) -> None:
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    (work / "link").symlink_to(elsewhere)
    (work / "file-link").symlink_to(elsewhere / "secret.txt")
    roots = Roots([work])
    assert roots.contain(work / "a" / "new.txt")
    assert roots.contain(work)
    assert not roots.contain(work / ".." / "elsewhere" / "x")
    assert not roots.contain(work / "link" / "x")
    assert not roots.contain(work / "file-link")
    assert not roots.contain(tmp_path / "work-sibling" / "x")  # a prefix is not a parent


@pytest.mark.posix_only("making a symlink needs a privilege on Windows")
def test_a_root_reached_through_a_symlink_is_compared_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    roots = Roots([tmp_path / "alias", tmp_path / "extra"])
    assert roots.contain(real / "x.txt")
    assert roots.contain(tmp_path / "extra" / "y.txt")


@pytest.mark.posix_only("named pipes (mkfifo) are POSIX files")
def test_a_named_pipe_is_refused_at_once_instead_of_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(WorkspaceError, match="not a regular file") as caught:
        read_bytes(pipe)
    assert caught.value.kind == "invalid"


def test_a_file_too_large_to_read_whole_is_refused_with_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 3_000_000)
    monkeypatch.setattr(files, "MAX_READ_BYTES", 2_000_000)
    with pytest.raises(WorkspaceError, match=r"too large to read \(3 MB; at most 2 MB\)"):
        read_bytes(big)


def test_where_no_folder_handles_are_walked_as_on_windows_paths_are_resolved_and_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.workspace import located as located_module

    monkeypatch.setattr(located_module, "WALKS_HANDLES", False)
    target = tmp_path / "new" / "notes.txt"
    with located(target) as where:
        assert (where.folder, where.real, where.through_link) == (-1, target, False)
        with pytest.raises(WorkspaceError, match="folder does not exist"):
            located_io.write(where, b"x", create_folders=False)
        located_io.write(where, b"first", create_folders=True)
        assert located_io.read(where) == b"first"
        located_io.write(where, b"second", create_folders=False)
        assert located_io.current(where) == b"second"
        located_io.delete(where)
        assert located_io.current(where) is None
    assert sorted(p.name for p in target.parent.iterdir()) == []


@pytest.mark.posix_only("making a symlink needs a privilege on Windows")
def test_where_no_folder_handles_are_walked_a_link_is_resolved_to_its_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.workspace import located as located_module

    monkeypatch.setattr(located_module, "WALKS_HANDLES", False)
    (tmp_path / "real").mkdir()
    (tmp_path / "door").symlink_to(tmp_path / "real")
    with located(tmp_path / "door" / "x.txt") as where:
        assert (where.real, where.through_link) == (tmp_path / "real" / "x.txt", True)
