"""The typed prompt blocks (app/acp/prompts.py) as ACP content blocks: see there for the rules."""

from __future__ import annotations

import base64
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
    PromptResource,
    PromptSupport,
    PromptText,
)
from app.core.errors import UserError
from app.core.regular_files import FileRefused, OpenedFile, opened_regular
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
        if isinstance(block, PromptResource):
            if support.embedded:
                contents = TextResourceContents(
                    uri=block.uri, text=block.text, mime_type=block.mime
                )
                files.append(EmbeddedResourceContentBlock(type="resource", resource=contents))
            else:
                texts.append(f"\n{block.title}\n{block.text}")
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
    """An SDK block for the file, or the text line that stands for it. Read as an agent's `fs`
    read is (app/core/regular_files.py): a pipe or a link put in its place since it was
    attached is refused, never waited on nor followed."""
    try:
        with opened_regular(file.path, follow_links=False) as opened:
            return _opened_block(file, opened, support)
    except FileRefused as refused:
        if refused.problem == "not_found":
            return missing_line(file)
        raise AttachmentUnreadable(
            _("an attached file was not sent: {reason}").format(reason=refused)
        ) from None


def _opened_block(file: PromptFile, opened: OpenedFile, support: PromptSupport) -> Any:
    if not support.declared:
        return attached_line(file)
    size = opened.info.st_size
    uri = Path(file.path).as_uri()
    link = ResourceContentBlock(
        type="resource_link", uri=uri, name=file.name, mime_type=file.mime or None, size=size
    )
    try:
        if file.image and support.image and size <= IMAGE_LIMIT:
            encoded = base64.b64encode(opened.read_at_most(IMAGE_LIMIT)).decode("ascii")
            return ImageContentBlock(type="image", data=encoded, mime_type=file.mime, uri=uri)
        if not file.image and support.embedded and size <= EMBED_LIMIT:
            text = _text_of(opened)
            if text is not None:
                contents = TextResourceContents(
                    uri=uri, text=text, mime_type=file.mime or "text/plain"
                )
                return EmbeddedResourceContentBlock(type="resource", resource=contents)
    except FileRefused as refused:
        if refused.problem != "too_large":  # grown past the limit since: a link, as if larger
            raise
    return link


def _text_of(opened: OpenedFile) -> str | None:
    """The file's text when it is UTF-8 text; None for a binary file."""
    if b"\0" in opened.head(SNIFF_BYTES):
        return None
    try:
        return opened.read_at_most(EMBED_LIMIT).decode("utf-8")
    except UnicodeDecodeError:
        return None


class AttachmentUnreadable(UserError):
    """An attached file that cannot be sent as it is now (no longer a regular file, a link put
    in its place, unreadable): the member's answer ends with this sentence."""
