"""How file change records (app/models/changes.py) are kept: the record as its wire JSON, and
the texts before and after the write (what a revert needs) zlib-compressed, apart from the
record so that listing a channel's changes never reads the texts."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

from app.models.changes import FileChange


@dataclass(frozen=True, slots=True)
class ChangeTexts:
    """The file's text before the write (None: the write created it) and the text written."""

    before: str | None
    after: str


def encode_change(change: FileChange) -> bytes:
    return change.model_dump_json(by_alias=True).encode()


def decode_change(record: bytes) -> FileChange:
    return FileChange.model_validate_json(record)


def encode_texts(texts: ChangeTexts) -> bytes:
    data = json.dumps({"before": texts.before, "after": texts.after}, ensure_ascii=False)
    return zlib.compress(data.encode(), 6)


def decode_texts(record: bytes) -> ChangeTexts:
    data = json.loads(zlib.decompress(record))
    return ChangeTexts(before=data["before"], after=data["after"])
