"""Export and SaveExport through ChannelService on the real LMDB history (issue 17): every message
of a conversation longer than a page, in order, in each format; the save dialog's path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.core.errors import UserError
from tests.integration.channels.conftest import Chat
from tests.waiting import wait_for


def long_conversation(chat: Chat, count: int) -> str:
    """A channel with `count` person's messages (each answered by a no-recipient line), kept."""
    room = chat.channels.Create("long")
    mark = chat.log.mark()
    for index in range(count):
        chat.channels.Send(room.id, f"note {index:03d}")
    wait_for(
        lambda: (
            len(
                [
                    p
                    for p in chat.log.named("message:updated", mark)
                    if p["channel"] == room.id and p["message"]["code"] == "no-recipient"
                ]
            )
            == count
        ),
        timeout=30,
        what=f"{count} no-recipient lines",
    )
    chat.idle(room.id, since=mark, timeout=30)
    return room.id


def test_the_markdown_export_has_every_message_of_a_long_conversation_in_order(
    chat: Chat,
) -> None:
    room = long_conversation(chat, 130)  # 260 messages: three pages of history
    assert chat.channels.Conversation(room)["more"]
    text = chat.sk.api.ExportService.Export(room, "markdown")
    assert text.startswith("# #long\n")
    assert re.findall(r"^note (\d{3})$", text, re.M) == [f"{i:03d}" for i in range(130)]
    assert text.count("*No agent was addressed: mention one with @name*") == 130


def test_the_json_export_is_the_history_s_messages_as_the_page_reads_them(chat: Chat) -> None:
    room = long_conversation(chat, 60)
    data = json.loads(chat.sk.api.ExportService.Export(room, "json"))
    messages = data["messages"]
    assert len(messages) == 120
    page = chat.channels.Conversation(room)["messages"]
    assert messages[-len(page) :] == page
    assert data["channel"]["id"] == room


def test_save_export_writes_where_the_dialog_says_and_offers_a_safe_name(
    chat: Chat, tmp_path: Path
) -> None:
    room = long_conversation(chat, 3)
    offered: list[str] = []
    target = tmp_path / "saved.html"

    def dialog(name: str) -> str:
        offered.append(name)
        return str(target)

    chat.sk.api.ExportService._set_save_chooser(dialog)
    assert chat.sk.api.ExportService.SaveExport(room, "html") == str(target)
    assert re.fullmatch(r"long-\d{4}-\d\d-\d\d\.html", offered[0])
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.count("<article") == 6


def test_a_cancelled_dialog_writes_nothing(chat: Chat, tmp_path: Path) -> None:
    room = long_conversation(chat, 1)
    chat.sk.api.ExportService._set_save_chooser(lambda name: "")
    assert chat.sk.api.ExportService.SaveExport(room, "markdown") == ""
    assert list(tmp_path.glob("*.md")) == []


def test_an_unknown_channel_or_format_is_a_clear_error(chat: Chat) -> None:
    with pytest.raises(UserError, match="there is no channel"):
        chat.sk.api.ExportService.Export("01JNOSUCHCHANNEL0000000000", "markdown")
    room = chat.channels.Create("formats")
    with pytest.raises(UserError):
        chat.sk.api.ExportService.Export(room.id, "pdf")  # type: ignore[arg-type]


def test_message_markdown_copies_a_stored_message(chat: Chat) -> None:
    room = chat.channels.Create("copy")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@alpha hello **there**")
    answer = chat.finished(room.id, "alpha", since=mark)
    assert (
        chat.sk.api.ExportService.MessageMarkdown(room.id, answer["id"])
        == "echo: @alpha hello **there**\n"
    )
    with pytest.raises(UserError, match="there is no message nope in this conversation"):
        chat.sk.api.ExportService.MessageMarkdown(room.id, "nope")
