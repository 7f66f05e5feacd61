"""How file change records (app/models/changes.py) are kept: the record as its wire JSON, and
what the file held before and after apart from the record (what a revert needs), so that listing
a channel's changes never reads them.

A side of a change is one of: None (no file), a text (an `fs/write_text_file`'s, kept whole), bytes
(what a hunk revert left, kept whole), or a `BlobRef` (a blob in the checkpoint store of the
agent's folder: binary files and every snapshot difference, byte-exact, kept once however many
records name it). Records kept before issue 25 hold texts only, and read the same."""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass
from typing import Any

from app.models.changes import FileChange


@dataclass(frozen=True, slots=True)
class BlobRef:
    folder: str  # the checkpointed folder (its real path): which shadow repository
    blob: str  # the blob's id there
    kind: str = "file"  # "file", "executable" or "link" (app/checkpoints/model.py Kind)


Side = str | bytes | BlobRef | None


@dataclass(frozen=True, slots=True)
class ChangeTexts:
    """What the file held before the change (None: the change created it) and after it (None:
    the change deleted it)."""

    before: Side
    after: Side


def encode_change(change: FileChange) -> bytes:
    return change.model_dump_json(by_alias=True).encode()


def decode_change(record: bytes) -> FileChange:
    return FileChange.model_validate_json(record)


def encode_texts(texts: ChangeTexts) -> bytes:
    data = json.dumps(
        {"before": _side_json(texts.before), "after": _side_json(texts.after)},
        ensure_ascii=False,
    )
    return zlib.compress(data.encode(), 6)


def decode_texts(record: bytes) -> ChangeTexts:
    data = json.loads(zlib.decompress(record))
    return ChangeTexts(before=_side(data["before"]), after=_side(data["after"]))


def _side_json(side: Side) -> Any:
    if side is None or isinstance(side, str):
        return side
    if isinstance(side, bytes):
        return {"bytes": base64.b64encode(side).decode()}
    return {"folder": side.folder, "blob": side.blob, "kind": side.kind}


def _side(value: Any) -> Side:
    if value is None or isinstance(value, str):
        return value
    if "bytes" in value:
        return base64.b64decode(value["bytes"])
    return BlobRef(str(value["folder"]), str(value["blob"]), str(value.get("kind", "file")))
