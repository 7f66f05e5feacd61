"""Putting files back (ChangesService.Revert and RevertHunk) and forward (CheckpointService
Restore): one engine of file edits, each "this file must hold X now; make it hold Y".

- **Serialized with writes**: an edit holds the write lock of every file it touches
  (changes.ChangeLog.writing), taken in path order, so an agent writing the file meanwhile
  waits: each change's "before" is the text it really replaced, and the records of a file form
  a chain (issue 24: unserialized, 90 of 300 records got a wrong "before").
- **Re-checked as a write is**: each file is located again without following an unchecked link
  (located.py); a path that now leads elsewhere (a link made since) or into Sidekicks' own files
  is refused, naming the file and where it leads: a revert never deletes or overwrites a file
  outside through a link an agent made afterwards. A symbolic link is never made or replaced.
- **All or nothing before it starts**: each file must hold what the step expects (for a revert,
  what the newest chosen change to it wrote), byte for byte, else nothing is done.
- **Journaled**: the steps are kept in the history before the first file is touched and cleared
  once all are done; a killed app leaves the journal, and the next opening of the history
  finishes it (`recover_revert`): a file that holds what the step expects is written, one that
  holds the step's result already is counted done, one changed by someone else is left as it
  is (and said in the log).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.acp.workspace import WorkspaceError
from app.core.errors import UserError
from app.history.change_records import BlobRef, ChangeTexts, Side
from app.i18n import _
from app.models.changes import FileChange
from app.workspace import located_io
from app.workspace.app_files import AppFiles
from app.workspace.located import Location, locate

if TYPE_CHECKING:
    from app.workspace.changes import ChangeLog

log = logging.getLogger(__name__)

JOURNAL_KEY = "revert-in-progress"  # History.value: {"channel": ..., "steps": [...]}
# What a step does to its change's record once its file is written: marked reverted, nothing
# (a restore's record exists before its files are written), or given the hunk revert's text.
Then = Literal["reverted", "applied", "hunk"]


@dataclass(slots=True)
class Step:
    change: FileChange
    path: str  # the file written (a renamed change has a step for each of its two paths)
    expected: bytes | None  # what the file must hold now (None: it must not exist)
    target: bytes | None  # what it holds after (None: removed)
    then: Then
    link: bool = False  # a side of it is a symbolic link: refused
    hunk_after: bytes | None = None  # for "hunk": the record's new "after"
    executable: bool = False  # the target is an executable file (its mode says so)


class ContentGone(UserError):
    """A change's contents are no longer kept (their checkpoint was cleared)."""


def content(side: Side, blob: Callable[[BlobRef], bytes]) -> bytes | None:
    """A side's bytes (None: no file); a text is its UTF-8."""
    if side is None:
        return None
    if isinstance(side, str):
        return side.encode()
    if isinstance(side, bytes):
        return side
    return blob(side)


def is_link(side: Side) -> bool:
    return isinstance(side, BlobRef) and side.kind == "link"


def is_executable(side: Side) -> bool:
    return isinstance(side, BlobRef) and side.kind == "executable"


def steps_back(
    change: FileChange, texts: ChangeTexts, blob: Callable[[BlobRef], bytes]
) -> list[Step]:
    """The steps that undo one change: its file back to what it held before."""
    link = is_link(texts.before) or is_link(texts.after)
    before, after = content(texts.before, blob), content(texts.after, blob)
    executable = is_executable(texts.before)
    if change.status == "renamed" and change.old_path:
        return [
            Step(change, change.path, after, None, "reverted", link),
            Step(change, change.old_path, None, before, "reverted", link, executable=executable),
        ]
    return [Step(change, change.path, after, before, "reverted", link, executable=executable)]


def steps_forward(
    change: FileChange, texts: ChangeTexts, blob: Callable[[BlobRef], bytes]
) -> list[Step]:
    """The steps that make one change (a restore's): its file to what it holds after."""
    back = steps_back(change, texts, blob)
    executable = is_executable(texts.after)
    return [
        Step(s.change, s.path, s.target, s.expected, "applied", s.link, executable=executable)
        for s in back[::-1]
    ]


class FileEdits:
    """One journaled run of steps in a channel, in their order."""

    def __init__(self, changes: ChangeLog, channel: str) -> None:
        self._log, self._channel = changes, channel

    async def run(self, make_steps: Callable[[], list[Step]]) -> list[FileChange]:
        """`make_steps` is called once the files' write locks are held (it checks the records
        again: another revert may have ended while this one waited)."""
        paths = sorted({s.path for s in await asyncio.to_thread(make_steps)})
        async with contextlib.AsyncExitStack() as held:
            for path in paths:
                await held.enter_async_context(self._log.writing(Path(path)))
            steps = await asyncio.to_thread(make_steps)
            if sorted({s.path for s in steps}) != paths:
                raise UserError(_("the changes moved on meanwhile: try again"))
            app_files = self._log.app_files()
            places = await asyncio.to_thread(_checked_places, steps, app_files)
            try:
                return await self._apply(steps, places)
            finally:
                for place in places.values():
                    place.close()

    async def _apply(self, steps: list[Step], places: dict[str, Location]) -> list[FileChange]:
        history = self._log.history
        history.put_value(JOURNAL_KEY, _journal(self._channel, steps))
        done: dict[str, FileChange] = {}
        try:
            for step in steps:
                place = places[step.path]
                await asyncio.to_thread(_write, place, step.target, step.executable)
                self._log.reverted(place.real, step.target)
                done[step.change.id] = step.change
            for step in steps:
                _record_done(self._log, step)
        except WorkspaceError as error:
            # A file that cannot be written (its folder went, permissions): what was done before
            # it stays done, and is said so.
            raise UserError(str(error)) from None
        finally:
            history.put_value(JOURNAL_KEY, b"")
            if done:
                self._log.announce(self._channel, sorted(done.values(), key=lambda c: c.id))
        return sorted(done.values(), key=lambda c: c.id)


def _record_done(changes: ChangeLog, step: Step) -> None:
    history = changes.history
    if step.then == "reverted":
        step.change.reverted = True
        history.put_change(step.change)
    elif step.then == "hunk":
        changes.rewrite_after(step.change, step.hunk_after)


def _journal(channel: str, steps: list[Step]) -> bytes:
    return json.dumps(
        {
            "channel": channel,
            "steps": [
                {
                    "change": s.change.id,
                    "path": s.path,
                    "expected": _b64(s.expected),
                    "target": _b64(s.target),
                    "then": s.then,
                    "executable": s.executable,
                }
                for s in steps
            ],
        }
    ).encode()


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()


def _unb64(text: object) -> bytes | None:
    return None if text is None else base64.b64decode(str(text))


def _checked_places(steps: list[Step], app_files: AppFiles) -> dict[str, Location]:
    """Each file located and checked, and holding what its first step expects (each step leaves
    what the next one to the same file expects); the open locations."""
    places: dict[str, Location] = {}
    try:
        now: dict[str, bytes | None] = {}
        for step in steps:
            if step.link:
                raise UserError(
                    _("{path} is a symbolic link: Sidekicks does not make or replace links").format(
                        path=step.path
                    )
                )
            if step.path not in places:
                places[step.path] = _place(step.path, app_files)
                now[step.path] = _bytes_now(places[step.path])
            if now[step.path] != step.expected:
                raise UserError(
                    _("{path} changed since {agent} wrote it: nothing was reverted").format(
                        path=step.path, agent=step.change.agent
                    )
                )
            now[step.path] = step.target
    except BaseException:
        for place in places.values():
            place.close()
        raise
    return places


def _place(path: str, app_files: AppFiles) -> Location:
    """The recorded file, which must still be itself: no link on the way, not an app file."""
    try:
        place = locate(Path(path))
    except WorkspaceError as error:
        raise UserError(str(error)) from None
    if place.through_link or place.real != Path(path):
        place.close()
        raise UserError(
            _(
                "{path} now leads to {target} through a link made since it was written: "
                "nothing was reverted"
            ).format(path=path, target=place.real)
        )
    try:
        app_files.check_write(place.real)
    except WorkspaceError as error:
        place.close()
        raise UserError(str(error)) from None
    return place


def _bytes_now(place: Location) -> bytes | None:
    try:
        return located_io.current(place)
    except WorkspaceError as error:
        raise UserError(str(error)) from None


def _write(place: Location, target: bytes | None, executable: bool = False) -> None:
    if target is None:
        located_io.delete(place)
    else:
        # A folder the change removed is made again (inside the located folder only).
        located_io.write(place, target, create_folders=True, executable=executable)


def recover_revert(changes: ChangeLog) -> list[FileChange]:
    """Finishes the steps a killed app left in the journal; the changes they updated."""
    history = changes.history
    raw = history.value(JOURNAL_KEY)
    if not raw:
        return []
    try:
        journal = json.loads(raw)
        channel = str(journal["channel"])
        if "changes" in journal:  # the journal of an older Sidekicks: change ids, reverted
            steps = _old_journal(changes, channel, [str(i) for i in journal["changes"]])
        else:
            steps = _journal_steps(changes, channel, journal["steps"])
    except (ValueError, KeyError, TypeError, UserError):
        log.warning("ignoring a damaged revert journal")
        history.put_value(JOURNAL_KEY, b"")
        return []
    finished: dict[str, FileChange] = {}
    failed: set[str] = set()
    now: dict[str, bytes | None] = {}
    for step in steps:
        if step.change.id not in failed and _finish_one(changes, step, now):
            finished[step.change.id] = step.change
        else:
            failed.add(step.change.id)
            finished.pop(step.change.id, None)
    for step in steps:
        if step.change.id in finished:
            _record_done(changes, step)
    history.put_value(JOURNAL_KEY, b"")
    if finished:
        log.info("finished an interrupted revert or restore of %d change(s)", len(finished))
        changes.announce(channel, sorted(finished.values(), key=lambda c: c.id))
    return sorted(finished.values(), key=lambda c: c.id)


def _journal_steps(changes: ChangeLog, channel: str, raw: list[dict[str, object]]) -> list[Step]:
    by_id = {c.id: c for c in changes.history.changes(channel)}
    steps = []
    for item in raw:
        change = by_id.get(str(item["change"]))
        if change is None:
            continue
        then = str(item["then"])
        target = _unb64(item["target"])
        steps.append(
            Step(
                change,
                str(item["path"]),
                _unb64(item["expected"]),
                target,
                "hunk" if then == "hunk" else "applied" if then == "applied" else "reverted",
                hunk_after=target if then == "hunk" else None,
                executable=bool(item.get("executable", False)),
            )
        )
    return steps


def _old_journal(changes: ChangeLog, channel: str, ids: list[str]) -> list[Step]:
    history = changes.history
    by_id = {c.id: c for c in history.changes(channel)}
    steps = []
    for change_id in sorted(ids, reverse=True):
        change = by_id.get(change_id)
        texts = history.change_texts(channel, change_id) if change else None
        if change is not None and texts is not None and not change.reverted:
            steps += steps_back(change, texts, changes.blob)
    return steps


def _finish_one(changes: ChangeLog, step: Step, now: dict[str, bytes | None]) -> bool:
    """Does one step if its file still holds what it expects; True when it is done."""
    try:
        place = _place(step.path, changes.app_files())
    except UserError as error:
        log.warning("an interrupted revert was not finished for %s: %s", step.path, error)
        return False
    try:
        if step.path not in now:
            now[step.path] = _bytes_now(place)
        if now[step.path] == step.target:
            return True  # done before the app was killed
        if now[step.path] != step.expected:
            log.warning("%s changed since the interrupted revert: left as it is", step.path)
            return False
        _write(place, step.target, step.executable)
        changes.reverted(place.real, step.target)
        now[step.path] = step.target
        return True
    except (UserError, WorkspaceError) as error:
        log.warning("an interrupted revert was not finished for %s: %s", step.path, error)
        return False
    finally:
        place.close()
