"""Checking stored messages before they are passed on, and what stands in for a damaged one.

A stored message goes to the page as the bytes the database holds (app/channels/reading.py):
a damaged record would reach it as invalid JSON, or make a typed read raise halfway. So a
record is checked in full the first time this process reads it (app/history/checked.py
remembers which were): valid UTF-8 JSON, a valid `Message` of its channel, in the stored form
(it begins with its id, which `RecordPage.ids` reads without decoding). A record that fails is
never passed on: the page gets a system note in its place, which says which record and why.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from app.history.base import ID_OPENING
from app.history.checked import CheckedPositions
from app.history.lmdb_format import ID_WIDTH
from app.history.problems import ProblemReport
from app.history.records import decode_messages, encode_message
from app.i18n import _
from app.models.conversation import Message

# A note's id names the position it stands for, so `Older(note id)` still finds its place.
NOTE_ID_START = "damaged-"
NOTE_OPENING = ID_OPENING + NOTE_ID_START.encode()


class RecordChecks:
    """The checks of one database's records, and the memory of what was checked."""

    def __init__(self, folder: Path, report: ProblemReport) -> None:
        self._folder = folder
        self._report = report
        self._checked = CheckedPositions()

    def records(self, prefix: bytes, items: list[tuple[bytes, bytes]]) -> list[bytes]:
        """The values of `items` (a channel's keys and records, newest first, as a walk
        gives them) oldest first, checked the first time this process reads them: a damaged
        record is replaced by a note that says so, and reported."""
        records = [value for _, value in reversed(items)]
        if not records:
            return records
        first, last = _position_of(items[-1][0]), _position_of(items[0][0])
        if self._checked.covers(prefix, first, last):
            return records  # the usual case: a page read before costs nothing more
        positions = [_position_of(key) for key, _ in reversed(items)]
        channel_id = prefix.decode()
        damaged = damaged_records(channel_id, records)
        for index, reason in damaged.items():
            position = positions[index]
            records[index] = damaged_note(channel_id, position, reason)
            details = _("record {position} of channel {channel}: {reason}").format(
                position=position, channel=channel_id, reason=reason
            )
            self._report.damaged(self._folder, details)
        # The runs between damaged records are checked; a damaged one is checked again at
        # every read (its note must stand in for it every time).
        start = 0
        for end in [*sorted(damaged), len(records)]:
            if start < end:
                self._checked.add(prefix, positions[start], positions[end - 1])
            start = end + 1
        return records

    def written(self, prefix: bytes, position: int) -> None:
        """A record this process wrote (encoded from a model: valid)."""
        self._checked.add(prefix, position, position)

    def forget(self, prefix: bytes) -> None:
        self._checked.forget(prefix)


def damaged_records(channel_id: str, records: list[bytes]) -> dict[int, str]:
    """Why each record that is not a stored message of the channel is not, by its index.
    All the records at once first (one validation of the page); one by one if that fails."""
    try:
        messages = decode_messages(records)
    except ValidationError:
        messages = []
    if len(messages) != len(records):  # not valid, or records merged or split by damage
        found = ((index, _fault(channel_id, record)) for index, record in enumerate(records))
    else:
        pairs = zip(records, messages, strict=True)
        found = ((index, _mismatch(channel_id, *pair)) for index, pair in enumerate(pairs))
    return {index: reason for index, reason in found if reason}


def damaged_note(channel_id: str, position: int, reason: str) -> bytes:
    """The system message shown where record `position` could not be read."""
    note = Message(
        id=f"{NOTE_ID_START}{position}",
        channel=channel_id,
        created_at="",  # unknown: the record that held it is what was damaged
        role="system",
        error=_(
            "A message could not be read here: this conversation's history is damaged "
            "(record {position}: {reason})."
        ).format(position=position, reason=reason),
    )
    return encode_message(note)


def note_position(message_id: str) -> int | None:
    """The position a note's id stands for; None for any other id."""
    if not message_id.startswith(NOTE_ID_START):
        return None
    digits = message_id[len(NOTE_ID_START) :]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 18 else None


def _position_of(key: bytes) -> int:
    return int.from_bytes(key[ID_WIDTH:], "big")


def _fault(channel_id: str, record: bytes) -> str:
    try:
        record.decode()
    except UnicodeDecodeError:
        return _("it is not UTF-8 text")
    try:
        message = Message.model_validate_json(record)
    except ValidationError as error:
        return invalid_reason(error)
    return _mismatch(channel_id, record, message)


def invalid_reason(error: ValidationError) -> str:
    """Why a stored record failed validation, in a few words (the first error is enough)."""
    first = error.errors()[0]
    if first["type"] == "json_invalid":
        return _("it is not valid JSON")
    field = ".".join(str(part) for part in first["loc"]) or "-"
    return _("it is not valid ({field}: {problem})").format(field=field, problem=first["msg"])


def _mismatch(channel_id: str, record: bytes, message: Message) -> str:
    if message.channel != channel_id:
        return _("it belongs to another channel")
    opening = ID_OPENING + message.id.encode() + b'"'
    if not record.startswith(opening) or not record.endswith(b"}"):
        return _("it is not in the stored form")
    return ""
