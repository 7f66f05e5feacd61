"""Attachments kept: paths in history across a restart, pasted images as files in the data
folder (never inline in LMDB) that go with their channel; bad inputs refused clearly."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.paths import data_dir
from tests.integration.channels.attachments_setup import (
    open_with_capabilities,
    png_base64,
    png_bytes,
    sent_and_answered,
)
from tests.integration.channels.conftest import Chat


def test_history_keeps_the_attachments_across_a_restart_and_images_stay_viewable(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("rich")
    notes = tmp_path / "notes.txt"
    notes.write_text("kept", encoding="utf-8")
    file = chat.sk.api.AttachmentService.AttachFile(room.id, str(notes))
    image = chat.sk.api.AttachmentService.AttachImage(
        room.id, "shot.png", "image/png", png_base64()
    )
    message_id = sent_and_answered(chat, room.id, "rich", "both", [file.id, image.id])
    chat.sk.close()

    again = open_chat()
    user = next(
        m for m in again.channels.Conversation(room.id)["messages"] if m["id"] == message_id
    )
    assert user["attachments"] == [file.wire(), image.wire()]
    url = again.sk.api.AttachmentService.AttachmentData(room.id, image.id)
    assert url == "data:image/png;base64," + png_base64()


def test_a_pasted_image_is_a_file_in_the_data_folder_not_bytes_in_the_history(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("rich")
    image = chat.sk.api.AttachmentService.AttachImage(
        room.id, "../../evil/shot.png", "image/png", png_base64()
    )
    sent_and_answered(chat, room.id, "rich", "an image", [image.id])

    folder = data_dir(chat.sk.config_path)
    assert Path(image.path) == folder / "attachments" / room.id / f"{image.id}.png"
    assert Path(image.path).read_bytes() == png_bytes()
    assert image.name == "shot.png"  # a name, never a path
    for record in folder.glob("*.mdb"):
        content = record.read_bytes()
        assert png_bytes()[8:40] not in content and png_base64()[:40].encode() not in content


def test_deleting_a_channel_deletes_its_images(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Create("pics")
    other = chat.channels.Create("other")
    sent = chat.sk.api.AttachmentService.AttachImage(room.id, "a.png", "image/png", png_base64())
    chat.channels.Send(room.id, "no one here", [sent.id])
    staged = chat.sk.api.AttachmentService.AttachImage(room.id, "b.png", "image/png", png_base64())
    kept = chat.sk.api.AttachmentService.AttachImage(other.id, "c.png", "image/png", png_base64())
    assert Path(sent.path).is_file() and Path(staged.path).is_file()

    chat.channels.Delete(room.id)
    assert not Path(sent.path).parent.exists()
    assert Path(kept.path).is_file()


def test_an_attachment_taken_back_before_sending_is_forgotten_with_its_copy(
    chat: Chat, tmp_path: Path
) -> None:
    room = chat.channels.Direct("alpha")
    image = chat.sk.api.AttachmentService.AttachImage(room.id, "a.png", "image/png", png_base64())
    chat.sk.api.AttachmentService.RemoveAttachment(room.id, image.id)
    assert not Path(image.path).exists()
    with pytest.raises(UserError, match="unknown attachment"):
        chat.channels.Send(room.id, "hi", [image.id])


@pytest.mark.parametrize(
    ("path", "refusal"),
    [
        ("notes.txt", "absolute path"),
        ("", "absolute path"),
        ("{tmp}/no/such/file.txt", "does not exist"),  # absolute on every system
        ("{tmp}", "is not a file"),
    ],
)
def test_attaching_a_bad_path_is_refused_with_why(
    chat: Chat, tmp_path: Path, path: str, refusal: str
) -> None:
    room = chat.channels.Direct("alpha")
    with pytest.raises(UserError, match=refusal):
        chat.sk.api.AttachmentService.AttachFile(room.id, path.format(tmp=tmp_path))


@pytest.mark.parametrize(
    ("mime", "data", "refusal"),
    [
        ("image/png", "not base64!", "not valid base64"),
        ("image/png", base64.b64encode(b"GIF89a" + b"\0" * 20).decode(), "not a image/png image"),
        ("image/svg+xml", base64.b64encode(b"<svg/>").decode(), "only PNG, JPEG, GIF and WebP"),
        ("image/png", base64.b64encode(png_bytes() + b"\0" * (10 << 20)).decode(), "too big"),
    ],
)
def test_a_bad_image_is_refused_with_why_and_nothing_is_kept(
    chat: Chat, mime: str, data: str, refusal: str
) -> None:
    room = chat.channels.Direct("alpha")
    with pytest.raises(UserError, match=refusal):
        chat.sk.api.AttachmentService.AttachImage(room.id, "x.png", mime, data)
    assert not (data_dir(chat.sk.config_path) / "attachments" / room.id).exists() or not any(
        (data_dir(chat.sk.config_path) / "attachments" / room.id).iterdir()
    )


def test_sending_an_unknown_attachment_sends_nothing(chat: Chat) -> None:
    room = chat.channels.Direct("alpha")
    mark = chat.log.mark()
    with pytest.raises(UserError, match="unknown attachment NOPE"):
        chat.channels.Send(room.id, "hi", ["NOPE"])
    assert chat.channels.Conversation(room.id)["messages"] == []
    assert chat.log.named("message:updated", since=mark) == []


def test_a_file_deleted_after_attaching_is_refused_at_send_and_stays_staged(
    chat: Chat, tmp_path: Path
) -> None:
    room = chat.channels.Direct("alpha")
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")
    file = chat.sk.api.AttachmentService.AttachFile(room.id, str(notes))
    notes.unlink()
    with pytest.raises(UserError, match="no longer exists"):
        chat.channels.Send(room.id, "hi", [file.id])
    assert chat.channels.Conversation(room.id)["messages"] == []
    notes.write_text("back", encoding="utf-8")
    assert chat.channels.Send(room.id, "hi", [file.id])


def test_image_bytes_are_given_only_for_this_conversations_images(
    chat: Chat, tmp_path: Path
) -> None:
    room = chat.channels.Direct("alpha")
    other = chat.channels.Direct("beta")
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")
    file = chat.sk.api.AttachmentService.AttachFile(room.id, str(notes))
    image = chat.sk.api.AttachmentService.AttachImage(room.id, "a.png", "image/png", png_base64())
    assert chat.sk.api.AttachmentService.AttachmentData(room.id, image.id).startswith(
        "data:image/png;base64,"
    )
    with pytest.raises(UserError, match="not an image"):
        chat.sk.api.AttachmentService.AttachmentData(room.id, file.id)
    with pytest.raises(UserError, match="no such attachment"):
        chat.sk.api.AttachmentService.AttachmentData(other.id, image.id)


def test_a_chosen_image_file_is_an_image_attachment_and_the_chooser_is_injectable(
    chat: Chat, tmp_path: Path
) -> None:
    picture = tmp_path / "photo.png"
    picture.write_bytes(png_bytes())
    fake = tmp_path / "fake.png"
    fake.write_text("not a png", encoding="utf-8")
    assert chat.sk.api.AttachmentService.ChooseFiles() == []  # headless: no dialog
    chat.sk.api.AttachmentService._set_files_chooser(lambda: [str(picture), str(fake)])
    room = chat.channels.Direct("alpha")
    chosen = [
        chat.sk.api.AttachmentService.AttachFile(room.id, p)
        for p in chat.sk.api.AttachmentService.ChooseFiles()
    ]
    assert [(a.kind, a.mime, a.size) for a in chosen] == [
        ("image", "image/png", len(png_bytes())),
        ("file", "application/octet-stream", len("not a png")),
    ]
