"""An attachment is read like an agent's `fs` read (issue 24): a regular file only, checked on
the opened file, opened without waiting (a named pipe never blocks a turn or a thread), a link
put in place of a kept image not followed, and every refusal a sentence."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from app.core.errors import UserError
from tests.agents import fake_command
from tests.integration.channels.attachments_setup import png_base64, png_bytes
from tests.integration.channels.conftest import Chat
from tests.waiting import wait_for

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
READERS = ("prompt_content.py", "attachments.py", "regular_files.py")


def reading_threads() -> list[str]:
    """Threads whose stack is in an attachment read (a blocked open of a pipe would be)."""
    found: list[str] = []
    for thread_id, frame in sys._current_frames().items():
        stack = []
        walking: FrameType | None = frame
        while walking is not None:
            stack.append(walking.f_code.co_filename)
            walking = walking.f_back
        if any(name.endswith(READERS) for name in stack):
            found.append(str(thread_id))
    return found


@contextlib.contextmanager
def released(fifo: Path) -> Iterator[None]:
    """Whatever happens, a reader left blocked opening `fifo` is let go (opening the write end
    ends its wait), so a failing test does not hang the suite."""
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def two_readers(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    """`keeper` takes embedded files and waits for a permission mid-turn; `rich` embeds too."""
    lines = []
    for name, behaviours in {
        "keeper": ["prompt-rich", "permission"],
        "rich": ["prompt-rich"],
    }.items():
        log = json.dumps(str(tmp_path / "agent-logs" / f"{name}.jsonl"))
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps(fake_command(*behaviours))}",
            f"    env: {{FAKE_LOG: {log}}}",
        ]
    return open_chat("\n".join(lines) + "\n")


@posix_only
def test_a_file_swapped_for_a_pipe_before_the_second_member_reads_it_ends_that_turn_with_why(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = two_readers(open_chat, tmp_path)
    room = chat.channels.Create("two", "", ["keeper", "rich"])
    chat.sk.api.HandoffService.SetHandoffs(room.id, 0)  # the fakes echo the mentions
    notes = tmp_path / "notes.txt"
    notes.write_text("the notes", encoding="utf-8")
    attached = chat.sk.api.AttachmentService.AttachFile(room.id, str(notes))
    with released(notes):
        mark = chat.log.mark()
        chat.channels.Send(room.id, "@keeper @rich read it", [attached.id])
        asked = chat.log.wait("permission:requested", since=mark, timeout=20)  # keeper read it
        notes.unlink()
        os.mkfifo(notes)
        chat.channels.AnswerPermission(asked["id"], "allow")

        first = chat.finished(room.id, "keeper", since=mark)
        second = chat.finished(room.id, "rich", since=mark, timeout=10)
        chat.idle(room.id, since=mark)
        wait_for(lambda: not reading_threads(), timeout=5, what="no thread left reading")
    assert first["error"] == ""
    assert str(notes) in second["error"] and "not a regular file" in second["error"]
    assert "Error:" not in second["error"]  # a sentence, not an exception's name


@posix_only
def test_a_kept_image_swapped_for_a_pipe_is_refused_at_once_when_the_page_asks_for_it(
    chat: Chat,
) -> None:
    room = chat.channels.Direct("alpha")
    image = chat.sk.api.AttachmentService.AttachImage(room.id, "a.png", "image/png", png_base64())
    path = Path(image.path)
    path.unlink()
    os.mkfifo(path)
    answer: list[BaseException | str] = []

    def ask() -> None:
        try:
            answer.append(chat.sk.api.AttachmentService.AttachmentData(room.id, image.id))
        except BaseException as error:  # handed to the test's thread
            answer.append(error)

    with released(path):
        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        asking.join(timeout=5)
        assert not asking.is_alive(), "AttachmentData waited for a writer of the pipe"
    assert isinstance(answer[0], UserError)
    assert "not a regular file" in str(answer[0])


def test_a_link_put_in_place_of_a_kept_image_is_not_followed(chat: Chat, tmp_path: Path) -> None:
    room = chat.channels.Direct("alpha")
    image = chat.sk.api.AttachmentService.AttachImage(room.id, "a.png", "image/png", png_base64())
    elsewhere = tmp_path / "elsewhere.png"
    elsewhere.write_bytes(png_bytes(3, 3))
    path = Path(image.path)
    path.unlink()
    try:
        path.symlink_to(elsewhere)
    except OSError:
        pytest.skip("this system does not let us make links")
    with pytest.raises(UserError, match="is a link"):
        chat.sk.api.AttachmentService.AttachmentData(room.id, image.id)


def test_an_attached_link_is_kept_as_the_file_it_points_to(chat: Chat, tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("real", encoding="utf-8")
    link = tmp_path / "current.txt"
    try:
        link.symlink_to(target)
    except OSError:
        pytest.skip("this system does not let us make links")
    room = chat.channels.Direct("alpha")
    attached = chat.sk.api.AttachmentService.AttachFile(room.id, str(link))
    assert attached.name == "current.txt"
    assert Path(attached.path) == Path(os.path.realpath(target))


@posix_only
@pytest.mark.parametrize("what", ["pipe", "device", "folder"])
def test_a_pipe_a_device_or_a_folder_attached_is_refused_with_a_sentence(
    chat: Chat, tmp_path: Path, what: str
) -> None:
    path = {"pipe": tmp_path / "pipe", "device": Path(os.devnull), "folder": tmp_path}[what]
    if what == "pipe":
        os.mkfifo(path)
    room = chat.channels.Direct("alpha")
    with (
        released(path) if what == "pipe" else contextlib.nullcontext(),
        pytest.raises(UserError, match="is not a file") as refused,
    ):
        chat.sk.api.AttachmentService.AttachFile(room.id, str(path))
    assert str(path) in str(refused.value)
    assert not reading_threads()
