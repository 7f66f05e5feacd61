"""A conversation as JSON: `{format, version, exportedAt, channel, messages}`, the channel and
its messages in the camelCase wire JSON the page receives (read back with the same models)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from app.channels.publishing import now_iso
from app.models.conversation import Channel, Message

FORMAT = "sidekicks-conversation"
VERSION = 1


def document(channel: Channel, messages: Iterable[Message]) -> Iterator[str]:
    head = {"format": FORMAT, "version": VERSION, "exportedAt": now_iso()}
    yield json.dumps(head)[:-1] + ',"channel":' + channel.model_dump_json(by_alias=True)
    yield ',"messages":['
    separator = ""
    for message in messages:
        yield separator + message.model_dump_json(by_alias=True)
        separator = ","
    yield "]}\n"
