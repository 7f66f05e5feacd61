"""Putting files back as they were before agents' changes (ChangesService.Revert).

- **Serialized with writes**: a revert holds the write lock of every file it touches
  (changes.ChangeLog.writing), taken in path order, so an agent writing the file meanwhile
  waits: each change's "before" is the text it really replaced, and the records of a file form
  a chain (issue 24: unserialized, 90 of 300 records got a wrong "before").
- **Re-checked as a write is**: each file is located again without following an unchecked link
  (located.py); a path that now leads elsewhere (a link made since) or into Sidekicks' own files
  is refused, naming the file and where it leads: a revert never deletes or overwrites a file
  outside through a link an agent made afterwards.
- **All or nothing before it starts**: each file must hold what the newest chosen change to it
  wrote, else nothing is reverted.
- **Journaled**: the changes being reverted are kept in the history before the first file is
  touched and cleared once all are marked; a killed app leaves the journal, and the next opening
  of the history finishes the revert (`recover_revert`): a file that holds the change's text is
  put back, one that holds the text before is marked, one changed by someone else is left as
  it is (and said in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.workspace import WorkspaceError
from app.core.errors import UserError
from app.history.change_records import ChangeTexts
from app.i18n import _
from app.models.changes import FileChange
from app.workspace import located_io
from app.workspace.app_files import AppFiles
from app.workspace.located import Location, locate

if TYPE_CHECKING:
    from app.workspace.changes import ChangeLog

log = logging.getLogger(__name__)

JOURNAL_KEY = "revert-in-progress"  # History.value: {"channel": ..., "changes": [ids]}


@dataclass(frozen=True, slots=True)
class _Chosen:
    change: FileChange
    texts: ChangeTexts


class Revert:
    """One revert of a channel's changes, newest first."""

    def __init__(self, changes: ChangeLog, channel: str, change_ids: list[str]) -> None:
        self._log, self._channel = changes, channel
        self._ids = list(dict.fromkeys(change_ids))

    async def run(self) -> list[FileChange]:
        paths = sorted({Path(c.change.path) for c in self._chosen()})
        async with contextlib.AsyncExitStack() as held:
            for path in paths:
                await held.enter_async_context(self._log.writing(path))
            chosen = self._chosen()  # again: another revert may have ended while we waited
            app_files = self._log.app_files()
            places = await asyncio.to_thread(_checked_places, chosen, app_files)
            try:
                return await self._put_back(chosen, places)
            finally:
                for place in places.values():
                    place.close()

    def _chosen(self) -> list[_Chosen]:
        history = self._log.history
        by_id = {c.id: c for c in history.changes(self._channel)}
        chosen: list[_Chosen] = []
        for change_id in self._ids:
            change = by_id.get(change_id)
            texts = history.change_texts(self._channel, change_id) if change else None
            if change is None or texts is None:
                raise UserError(_("there is no change {id} in this channel").format(id=change_id))
            if change.reverted:
                raise UserError(
                    _("the change to {path} was already reverted").format(path=change.path)
                )
            chosen.append(_Chosen(change, texts))
        chosen.sort(key=lambda c: c.change.id, reverse=True)
        return chosen

    async def _put_back(
        self, chosen: list[_Chosen], places: dict[str, Location]
    ) -> list[FileChange]:
        history = self._log.history
        journal = {"channel": self._channel, "changes": [c.change.id for c in chosen]}
        history.put_value(JOURNAL_KEY, json.dumps(journal).encode())
        done: list[FileChange] = []
        try:
            for item in chosen:
                place = places[item.change.path]
                await asyncio.to_thread(_write_before, place, item.texts)
                self._log.reverted(place.real, item.texts.before)
                item.change.reverted = True
                history.put_change(item.change)
                done.append(item.change)
        except WorkspaceError as error:
            # A file that cannot be written back (its folder went, permissions): what was
            # reverted before it stays reverted, and is said so.
            raise UserError(str(error)) from None
        finally:
            history.put_value(JOURNAL_KEY, b"")
            if done:
                self._log.announce(self._channel, sorted(done, key=lambda c: c.id))
        return sorted(done, key=lambda c: c.id)


def _checked_places(chosen: list[_Chosen], app_files: AppFiles) -> dict[str, Location]:
    """Each file located and checked, and holding what the newest chosen change to it wrote
    (reverting that one leaves what the next one wrote, and so on); the open locations."""
    places: dict[str, Location] = {}
    try:
        expected: dict[str, str | None] = {}
        for item in chosen:
            path = item.change.path
            if path not in places:
                places[path] = _place(path, app_files)
                expected[path] = _text_now(places[path])
            if expected[path] != item.texts.after:
                raise UserError(
                    _("{path} changed since {agent} wrote it: nothing was reverted").format(
                        path=path, agent=item.change.agent
                    )
                )
            expected[path] = item.texts.before
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


def _text_now(place: Location) -> str | None:
    try:
        data = located_io.current(place)
    except WorkspaceError as error:
        raise UserError(str(error)) from None
    return data.decode("utf-8", "replace") if data is not None else None


def _write_before(place: Location, texts: ChangeTexts) -> None:
    if texts.before is None:
        located_io.delete(place)
    else:
        located_io.write(place, texts.before.encode(), create_folders=False)


def recover_revert(changes: ChangeLog) -> list[FileChange]:
    """Finishes the revert a killed app left in the journal; the changes marked reverted."""
    history = changes.history
    raw = history.value(JOURNAL_KEY)
    if not raw:
        return []
    try:
        journal = json.loads(raw)
        channel, ids = str(journal["channel"]), [str(i) for i in journal["changes"]]
    except (ValueError, KeyError, TypeError):
        log.warning("ignoring a damaged revert journal")
        history.put_value(JOURNAL_KEY, b"")
        return []
    by_id = {c.id: c for c in history.changes(channel)}
    finished: list[FileChange] = []
    now: dict[str, str | None] = {}
    for change_id in sorted(ids, reverse=True):
        change = by_id.get(change_id)
        texts = history.change_texts(channel, change_id) if change else None
        if change is None or texts is None or change.reverted:
            continue
        if _finish_one(changes, change, texts, now):
            change.reverted = True
            history.put_change(change)
            finished.append(change)
    history.put_value(JOURNAL_KEY, b"")
    if finished:
        log.info("finished a revert of %d change(s) that was interrupted", len(finished))
        changes.announce(channel, sorted(finished, key=lambda c: c.id))
    return finished


def _finish_one(
    changes: ChangeLog, change: FileChange, texts: ChangeTexts, now: dict[str, str | None]
) -> bool:
    """Puts one change back if its file still holds its text; True when it is reverted."""
    try:
        place = _place(change.path, changes.app_files())
    except UserError as error:
        log.warning("an interrupted revert was not finished for %s: %s", change.path, error)
        return False
    try:
        if change.path not in now:
            now[change.path] = _text_now(place)
        if now[change.path] == texts.before:
            return True  # put back before the app was killed
        if now[change.path] != texts.after:
            log.warning("%s changed since the interrupted revert: left as it is", change.path)
            return False
        _write_before(place, texts)
        changes.reverted(place.real, texts.before)
        now[change.path] = texts.before
        return True
    except (UserError, WorkspaceError) as error:
        log.warning("an interrupted revert was not finished for %s: %s", change.path, error)
        return False
    finally:
        place.close()
