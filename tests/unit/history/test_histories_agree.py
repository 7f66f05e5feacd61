"""Random sequences of writes and reads give the same answers from memory and from LMDB.

The contract tests pin the boundaries by hand; this one looks for the cases nobody thought of
(ids between and beside others, neighbouring channels, deletions in the middle, odd limits)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.history.base import History
from app.history.lmdb_store import LmdbHistory
from app.history.memory import MemoryHistory
from tests.unit.history.samples import adjacent_ids, ids, stored_channel, text_message

CHANNELS = adjacent_ids(3)  # neighbours: a range walk that overshoots lands in the next one
MESSAGE_IDS = adjacent_ids(32)  # a pool to pick from; queries also use ids never added
OPERATIONS = ("add", "delete", "last", "before", "after", "after-start")
# (operation, channel index, message index, limit): each operation uses what it needs.
Step = tuple[str, int, int, int]
step_lists = st.lists(
    st.tuples(
        st.sampled_from(OPERATIONS),
        st.integers(0, len(CHANNELS) - 1),
        st.integers(0, len(MESSAGE_IDS) - 1),
        st.integers(0, 12),
    ),
    max_size=40,
)


def apply(history: History, step: Step) -> object:
    """Runs one operation; returns what a read answered (message ids), None for a write."""
    operation, channel_index, message_index, limit = step
    channel, message_id = CHANNELS[channel_index], MESSAGE_IDS[message_index]
    if operation == "add":
        history.put_channel(stored_channel(channel))
        history.add_message(text_message(channel, message_id, message_id))
    elif operation == "delete":
        history.delete_channel(channel)
    elif operation == "last":
        messages, more = history.last_messages(channel, limit)
        return ids(messages), more
    elif operation == "before":
        messages, more = history.messages_before(channel, message_id, limit)
        return ids(messages), more
    elif operation == "after":
        return ids(history.messages_after(channel, message_id, limit))
    else:
        return ids(history.messages_after(channel, "", limit))
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step_lists)
def test_memory_and_lmdb_histories_answer_every_sequence_alike(steps: list[Step]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        memory, disk = MemoryHistory(), LmdbHistory(Path(folder))
        try:
            for step in steps:
                assert apply(disk, step) == apply(memory, step), step
            assert [c.channel.id for c in disk.channels()] == [
                c.channel.id for c in memory.channels()
            ]
        finally:
            disk.close()
