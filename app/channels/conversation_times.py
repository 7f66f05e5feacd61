"""When a conversation was made and last written to (issue 28), for records kept before these
times were: a time-sortable id (app/core/ids.py) says when it was made."""

from __future__ import annotations

from datetime import UTC, datetime

from app.models.conversation import Channel

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # app/core/ids.py's


def id_time(channel_id: str) -> str:
    """When a record with this time-sortable id was made (ISO UTC); "" for an id of another
    form. Records kept before issue 28 have no `createdAt`: their id says it."""
    value = 0
    for char in channel_id[:10].upper():
        digit = _ALPHABET.find(char)
        if digit < 0:
            return ""
        value = value * 32 + digit
    if len(channel_id) != 26:
        return ""
    try:  # 10 characters are the id's first 50 bits, its milliseconds (app/core/ids.py)
        moment = datetime.fromtimestamp(value / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return ""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def dated(channel: Channel) -> None:
    """Fills in the times of a record kept before they existed."""
    if not channel.created_at:
        channel.created_at = id_time(channel.id)
    if not channel.last_activity:
        channel.last_activity = channel.created_at
