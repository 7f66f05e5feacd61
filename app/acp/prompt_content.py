"""The typed prompt blocks (app/acp/prompts.py) as ACP content blocks: see there for the rules."""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from acp.schema import (
    AgentCapabilities,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from app.acp.prompts import (
    EMBED_LIMIT,
    IMAGE_LIMIT,
    SNIFF_BYTES,
    PromptBlock,
    PromptFile,
    PromptSupport,
    PromptText,
)
from app.i18n import _


def prompt_support(caps: AgentCapabilities | None) -> PromptSupport:
    """What the agent's `initialize` said; an agent silent about prompts declared nothing."""
    if caps is None or "prompt_capabilities" not in caps.model_fields_set:
        return PromptSupport()
    prompt = caps.prompt_capabilities
    if prompt is None:
        return PromptSupport()
    return PromptSupport(True, bool(prompt.image), bool(prompt.embedded_context))


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def attached_line(file: PromptFile) -> str:
    what = ", ".join(x for x in (file.mime, human_size(file.size)) if x)
    return f"[attached: {file.path} ({what})]"


def missing_line(file: PromptFile) -> str:
    return _("[attached: {path} — this file no longer exists: it was moved or deleted]").format(
        path=file.path
    )


def sdk_prompt(blocks: Sequence[PromptBlock], support: PromptSupport) -> list[Any]:
    """The ACP content blocks of a prompt; reads the files (call it off the loop)."""
    texts: list[str] = []
    extra_lines: list[str] = []
    files: list[Any] = []
    for block in blocks:
        if isinstance(block, PromptText):
            texts.append(block.text)
            continue
        sdk_block = _file_block(block, support)
        if isinstance(sdk_block, str):
            extra_lines.append(sdk_block)
        else:
            files.append(sdk_block)
    text = "\n".join(t for t in texts if t)
    if extra_lines:
        text = "\n".join([text, "", *extra_lines] if text else extra_lines)
    prompt: list[Any] = [TextContentBlock(type="text", text=text)] if text or not files else []
    return prompt + files


def _file_block(file: PromptFile, support: PromptSupport) -> Any:
    """An SDK block for the file, or the text line that stands for it."""
    try:
        stat = os.stat(file.path)
    except OSError:
        return missing_line(file)
    if not support.declared:
        return attached_line(file)
    uri = Path(file.path).as_uri()
    link = ResourceContentBlock(
        type="resource_link",
        uri=uri,
        name=file.name,
        mime_type=file.mime or None,
        size=stat.st_size,
    )
    try:
        if file.image and support.image and stat.st_size <= IMAGE_LIMIT:
            data = Path(file.path).read_bytes()
            encoded = base64.b64encode(data).decode("ascii")
            return ImageContentBlock(type="image", data=encoded, mime_type=file.mime, uri=uri)
        if not file.image and support.embedded and stat.st_size <= EMBED_LIMIT:
            text = _text_of(Path(file.path))
            if text is not None:
                contents = TextResourceContents(
                    uri=uri, text=text, mime_type=file.mime or "text/plain"
                )
                return EmbeddedResourceContentBlock(type="resource", resource=contents)
    except OSError:
        return missing_line(file)
    return link


def _text_of(path: Path) -> str | None:
    """The file's text when it is UTF-8 text; None for a binary file."""
    with path.open("rb") as f:
        head = f.read(SNIFF_BYTES)
        if b"\0" in head:
            return None
        data = head + f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
