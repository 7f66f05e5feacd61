"""The demo agent's sessions on disk, one JSON file each, so `session/load` survives restarts."""

from __future__ import annotations

import math
import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from acp import RequestError
from pydantic import BaseModel, ValidationError

from app.core.atomic import write_atomic

CONTEXT_WINDOW = 200_000
# What a real agent's system prompt and tool definitions would take before the first turn.
BASE_CONTEXT_TOKENS = 1_200

# 128 random bits: unguessable, and only [a-z0-9-], so always a safe file name.
_SESSION_ID = re.compile(r"demo-[0-9a-f]{32}")

# JSON-RPC error codes; the messages are written for a person, the SDK's generic ones are not.
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002  # ACP's code for an unknown resource


def estimate_tokens(text: str) -> int:
    """The usual rule of thumb, about four characters per token: the demo has no tokenizer."""
    return math.ceil(len(text) / 4)


class TurnRecord(BaseModel):
    user: str
    answer: str


class SessionRecord(BaseModel):
    """What a demo session remembers: where it works, what was said, how full its context is."""

    version: int = 1
    id: str
    cwd: str
    created: str
    mcp_servers: list[str] = []
    always_allow_edits: bool = False
    turns: list[TurnRecord] = []
    used: int = BASE_CONTEXT_TOKENS
    # Its mode and options (demo_settings.py); sessions saved before them get the defaults.
    mode: str = "code"
    model: str = "demo-swift"
    show_thoughts: bool = True

    def remember(self, user: str, answer: str) -> None:
        self.turns.append(TurnRecord(user=user, answer=answer))
        self.used = min(CONTEXT_WINDOW, self.used + estimate_tokens(user) + estimate_tokens(answer))


class SessionStore:
    """Session files under `folder`, created on first save, each written atomically."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def create(self, cwd: str, mcp_servers: list[str]) -> SessionRecord:
        record = SessionRecord(
            id=f"demo-{secrets.token_hex(16)}",
            cwd=cwd,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            mcp_servers=mcp_servers,
        )
        self.save(record)
        return record

    def load(self, session_id: str) -> SessionRecord:
        path = self._path(session_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RequestError(
                RESOURCE_NOT_FOUND,
                f"Unknown session {session_id!r}: the demo agent has no such session"
                f" in {self.folder}",
                {"sessionId": session_id},
            ) from None
        try:
            record = SessionRecord.model_validate_json(text)
        except ValidationError as err:
            raise RequestError(
                INTERNAL_ERROR,
                f"The demo session file {path} is unreadable: {err}",
                {"sessionId": session_id},
            ) from None
        if record.id != session_id:  # a file copied under another name
            raise RequestError(
                INTERNAL_ERROR,
                f"The demo session file {path} belongs to session {record.id!r}",
                {"sessionId": session_id},
            )
        return record

    def save(self, record: SessionRecord) -> None:
        path = self._path(record.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, record.model_dump_json(indent=1))

    def _path(self, session_id: str) -> Path:
        # Checked before any path is built: an id like "../x" must never reach the file system.
        if not _SESSION_ID.fullmatch(session_id):
            raise RequestError(
                INVALID_PARAMS,
                f"{session_id!r} is not a demo session id (they look like demo-<32 hex digits>)",
                {"sessionId": session_id},
            )
        return self.folder / f"{session_id}.json"
