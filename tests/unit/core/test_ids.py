"""Identifiers sort in creation order, even within one millisecond."""

from __future__ import annotations

import threading

from app.core.ids import new_id


def test_ids_are_26_crockford_characters() -> None:
    identifier = new_id()
    assert len(identifier) == 26
    assert set(identifier) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def test_ids_made_one_after_the_other_are_strictly_increasing() -> None:
    ids = [new_id() for _ in range(10_000)]  # many share a millisecond
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


def test_ids_made_on_several_threads_never_collide() -> None:
    made: list[list[str]] = [[] for _ in range(4)]

    def make(out: list[str]) -> None:
        out.extend(new_id() for _ in range(2_000))

    threads = [threading.Thread(target=make, args=(out,)) for out in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [i for out in made for i in out]
    assert len(set(every)) == len(every)
    assert all(out == sorted(out) for out in made)
