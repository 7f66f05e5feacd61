"""Where an export is saved (app/channels/export/saving.py): a safe default name, an atomic
write, and clear errors."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.channels.export.saving import (
    NAME_BYTES_MAX,
    NAME_MAX,
    default_name,
    safe_stem,
    write_document,
)
from app.core.errors import UserError
from app.models.conversation import Channel


def test_the_default_name_is_the_channel_and_the_date() -> None:
    name = default_name(Channel(id="c", name="dev team"), "markdown")
    assert re.fullmatch(r"dev-team-\d{4}-\d\d-\d\d\.md", name)


def test_a_direct_conversation_is_named_after_its_agent() -> None:
    assert default_name(Channel(id="c", direct="alpha"), "html").startswith("alpha-")


def test_characters_no_file_system_takes_are_replaced() -> None:
    name = default_name(Channel(id="c", name='../a/b:c*"?<>|\x01'), "json")
    assert re.fullmatch(r"a-b-c-\d{4}-\d\d-\d\d\.json", name)
    assert default_name(Channel(id="c", name="..."), "json").startswith("conversation-")


def test_the_document_is_written_whole(tmp_path: Path) -> None:
    (tmp_path / "exports").mkdir()
    target = tmp_path / "exports" / "out.md"
    assert write_document(str(target), iter(["a", "b", "é"])) == str(target)
    assert target.read_text(encoding="utf-8") == "abé"
    assert os.listdir(target.parent) == ["out.md"]


def test_a_failure_midway_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    (tmp_path / "exports").mkdir()
    target = tmp_path / "exports" / "out.md"
    target.write_text("old", encoding="utf-8")

    def pieces() -> Iterator[str]:
        yield "new"
        raise OSError(28, "No space left on device")

    with pytest.raises(UserError, match="No space left on device"):
        write_document(str(target), pieces())
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(target.parent) == ["out.md"]


def test_a_folder_that_cannot_hold_the_file_is_a_clear_error(tmp_path: Path) -> None:
    # What a read-only folder does to an ordinary user, shown as root too: its "folder" is a file.
    not_a_folder = tmp_path / "locked"
    not_a_folder.write_text("a file", encoding="utf-8")
    with pytest.raises(UserError, match=r"could not save the export to .*locked.*"):
        write_document(str(not_a_folder / "out.md"), iter(["x"]))
    assert not_a_folder.read_text(encoding="utf-8") == "a file"


def test_a_folder_or_a_relative_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is a folder"):
        write_document(str(tmp_path), iter(["x"]))
    with pytest.raises(UserError, match="full path"):
        write_document("out.md", iter(["x"]))


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"could not save the export to .*: No such file"):
        write_document(str(tmp_path / "gone" / "out.md"), iter(["x"]))


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("#Code Review!", "#Code-Review!"),
        ("  .hidden  ", "hidden"),
        ("notes. . .", "notes"),
        ("tabs\tand\nlines", "tabs-and-lines"),
        ("a\x00b\x1fc\x7fd\x85e", "a-b-c-d-e"),
        ("fake\u202egnp.exe", "fakegnp.exe"),
        ("CON", "CON-conversation"),
        ("nul.txt", "nul-conversation.txt"),
        ("com1", "com1-conversation"),
        ("Lpt9 ", "Lpt9-conversation"),
        ("console", "console"),
        ("--", "conversation"),
        ("", "conversation"),
    ],
)
def test_a_channel_name_becomes_a_name_every_file_system_takes(name: str, stem: str) -> None:
    assert safe_stem(name) == stem
    assert default_name(Channel(id="c", name=name), "markdown").startswith(f"{stem}-")


def test_a_long_name_is_cut_in_characters_and_in_bytes() -> None:
    assert len(safe_stem("x" * 300)) == NAME_MAX
    cut = safe_stem("é" * 150)
    assert len(cut.encode("utf-8")) <= NAME_BYTES_MAX
    assert len(default_name(Channel(id="c", name="🙂" * 150), "html").encode("utf-8")) <= 255
    assert safe_stem("word " * 40).endswith("word")  # never a dash or dot left at the cut
