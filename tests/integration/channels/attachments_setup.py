"""Agents with three prompt capability sets, and files to attach, for the attachment tests."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.agents import fake_command
from tests.integration.channels.conftest import Chat


def extra_agents(log_dir: Path) -> str:
    """`rich` takes images and embedded files, `links` declares neither, `plain` says nothing."""
    lines = []
    for name, behaviours in {
        "rich": ["prompt-rich"],
        "links": ["prompt-links"],
        "plain": [],
    }.items():
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps(fake_command(*behaviours))}",
            f"    env: {{FAKE_LOG: {json.dumps(str(log_dir / (name + '.jsonl')))}}}",
        ]
    return "\n".join(lines) + "\n"


def open_with_capabilities(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    return open_chat(extra_agents(tmp_path / "agent-logs"))


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A real (tiny) PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def png_base64() -> str:
    return base64.b64encode(png_bytes()).decode("ascii")


def prompt_blocks(chat: Chat, agent: str) -> list[list[dict[str, Any]]]:
    """The content blocks of every prompt the fake agent received, in order."""
    return [
        m["params"]["prompt"] for m in chat.received(agent) if m.get("method") == "session/prompt"
    ]


def sent_and_answered(chat: Chat, channel: str, agent: str, text: str, ids: list[str]) -> str:
    mark = chat.log.mark()
    message_id = chat.channels.Send(channel, text, ids)
    chat.finished(channel, agent, since=mark)
    chat.idle(channel, since=mark)
    return message_id
