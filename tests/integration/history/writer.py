"""Appends messages to one channel of a configuration's history until it is killed.

Usage: writer.py CONFIG_PATH CHANNEL_ID SEED. Message n's text is `n:sha256(n:body):body` with a
random body from a few hundred bytes to tens of kilobytes (many span several LMDB pages), so a
half-written message cannot pass for a whole one. The id of each message is printed once
`add_message` has returned, i.e. once the message is durable."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

from app.core.ids import new_id
from app.history.open import open_history
from app.models.conversation import Message, Part

BODY_SIZES = (200, 3000, 9000, 40000)


def checksum(number: int, body: str) -> str:
    return hashlib.sha256(f"{number}:{body}".encode()).hexdigest()


def main() -> None:
    config_path, channel_id, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    history = open_history(config_path)
    if history.problem:
        sys.exit(f"no history on disk: {history.problem}")
    rng = random.Random(seed)
    number = 0
    while True:
        body = rng.randbytes(rng.choice(BODY_SIZES) // 2).hex()
        message = Message(
            id=new_id(),
            channel=channel_id,
            created_at="2025-01-02T03:04:05.678Z",
            role="agent",
            agent="writer",
            parts=[Part(kind="text", text=f"{number}:{checksum(number, body)}:{body}")],
        )
        history.add_message(message)
        print(message.id, flush=True)
        number += 1


if __name__ == "__main__":
    main()
