"""Files and images attached to a message reach each agent as its promptCapabilities allow
(issue 15): image and embedded resource blocks, resource links, or a line of text."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

from tests.integration.channels.attachments_setup import (
    open_with_capabilities,
    png_base64,
    png_bytes,
    prompt_blocks,
    sent_and_answered,
)
from tests.integration.channels.conftest import Chat


def two_files(tmp_path: Path) -> tuple[Path, Path]:
    """A text file and a binary file."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\nfirst line é\n", encoding="utf-8", newline="\n")  # sent as is
    blob = tmp_path / "data.bin"
    blob.write_bytes(b"\x00\x01\x02binary")
    return notes, blob


def test_an_agent_taking_images_and_embedded_context_gets_image_resource_and_link_blocks(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("rich")
    notes, blob = two_files(tmp_path)
    ids = [
        chat.sk.api.AttachmentService.AttachFile(room.id, str(notes)).id,
        chat.sk.api.AttachmentService.AttachFile(room.id, str(blob)).id,
        chat.sk.api.AttachmentService.AttachImage(
            room.id, "shot.png", "image/png", png_base64()
        ).id,
    ]
    sent_and_answered(chat, room.id, "rich", "look at these", ids)

    blocks = prompt_blocks(chat, "rich")[-1]
    assert [b["type"] for b in blocks] == ["text", "resource", "resource_link", "image"]
    assert blocks[0]["text"] == "look at these"
    assert blocks[1]["resource"] == {
        "uri": notes.as_uri(),
        "text": "# Notes\nfirst line é\n",
        "mimeType": "text/markdown",
    }
    assert blocks[2]["uri"] == blob.as_uri() and blocks[2]["name"] == "data.bin"
    assert blocks[2]["size"] == len(b"\x00\x01\x02binary")
    assert blocks[3]["mimeType"] == "image/png"
    assert base64.b64decode(blocks[3]["data"]) == png_bytes()


def test_an_agent_declaring_neither_gets_every_file_as_a_resource_link(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("links")
    notes, _ = two_files(tmp_path)
    image = chat.sk.api.AttachmentService.AttachImage(
        room.id, "shot.png", "image/png", png_base64()
    )
    ids = [chat.sk.api.AttachmentService.AttachFile(room.id, str(notes)).id, image.id]
    sent_and_answered(chat, room.id, "links", "read them", ids)

    blocks = prompt_blocks(chat, "links")[-1]
    assert [b["type"] for b in blocks] == ["text", "resource_link", "resource_link"]
    assert blocks[1]["uri"] == notes.as_uri() and blocks[1]["mimeType"] == "text/markdown"
    assert blocks[2]["uri"] == Path(image.path).as_uri() and blocks[2]["mimeType"] == "image/png"


def test_an_agent_silent_about_prompts_gets_a_line_per_file_in_the_text(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("plain")
    notes, _ = two_files(tmp_path)
    image = chat.sk.api.AttachmentService.AttachImage(
        room.id, "shot.png", "image/png", png_base64()
    )
    ids = [chat.sk.api.AttachmentService.AttachFile(room.id, str(notes)).id, image.id]
    sent_and_answered(chat, room.id, "plain", "see", ids)

    blocks = prompt_blocks(chat, "plain")[-1]
    assert [b["type"] for b in blocks] == ["text"]
    size = len(png_bytes())
    assert blocks[0]["text"] == (
        f"see\n\n[attached: {notes} (text/markdown, 22 B)]\n"
        f"[attached: {image.path} (image/png, {size} B)]"
    )


def test_a_message_with_files_and_no_text_is_sent(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("rich")
    image = chat.sk.api.AttachmentService.AttachImage(
        room.id, "shot.png", "image/png", png_base64()
    )
    message_id = sent_and_answered(chat, room.id, "rich", "", [image.id])

    blocks = prompt_blocks(chat, "rich")[-1]
    assert [b["type"] for b in blocks] == ["image"]
    user = next(m for m in chat.channels.Conversation(room.id)["messages"] if m["id"] == message_id)
    assert [a["name"] for a in user["attachments"]] == ["shot.png"]


def test_a_file_gone_before_an_agent_reads_it_is_a_line_that_says_so(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Create("two")
    notes = tmp_path / "notes.txt"
    notes.write_text("soon gone", encoding="utf-8")
    attached = chat.sk.api.AttachmentService.AttachFile(room.id, str(notes))
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@perm edit")  # waits for the person's answer
    asked = chat.log.wait("permission:requested", since=mark, timeout=20)
    queued = chat.channels.Send(room.id, "@rich read it", [attached.id])
    notes.unlink()  # after Send checked it, before the agent's turn
    chat.channels.AnswerPermission(asked["id"], "allow")
    chat.finished(room.id, "rich", since=mark)
    chat.idle(room.id, since=mark)

    blocks = prompt_blocks(chat, "rich")[-1]
    assert [b["type"] for b in blocks] == ["text"]
    assert blocks[0]["text"].endswith(
        f"read it\n\n[attached: {notes} — this file no longer exists: it was moved or deleted]"
    )
    user = next(m for m in chat.channels.Conversation(room.id)["messages"] if m["id"] == queued)
    assert [a["path"] for a in user["attachments"]] == [str(notes)]


def test_a_text_file_past_the_embedding_limit_goes_as_a_link_only(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_with_capabilities(open_chat, tmp_path)
    room = chat.channels.Direct("rich")
    big = tmp_path / "big.log"
    big.write_bytes(b"a line of log\n" * (21 * 1024 * 1024 // 14))
    sent_and_answered(
        chat,
        room.id,
        "rich",
        "big",
        [chat.sk.api.AttachmentService.AttachFile(room.id, str(big)).id],
    )

    blocks = prompt_blocks(chat, "rich")[-1]
    assert [b["type"] for b in blocks] == ["text", "resource_link"]
    assert blocks[1]["size"] == big.stat().st_size
