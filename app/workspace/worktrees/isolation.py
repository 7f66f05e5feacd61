"""Which members work in a worktree, and where: the person's choice per channel and member
(SetIsolation; absent: the YAML's `isolation: worktree`), and each worktree's record (its
folder, repository and base commit), kept beside it in the data folder:

  <data folder>/worktrees/<channel>/<agent>/        the worktree
  <data folder>/worktrees/<channel>/<agent>.json    {"isolated", "root", "inside", "base"}

The worktree is made when isolation is turned on (SetIsolation, to refuse a folder that is not
a repository at once) or, for the YAML's, when the member's session opens. Turning isolation off
keeps the worktree (its work is there to merge or discard); Discard removes it."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from app.core.atomic import write_atomic
from app.core.errors import UserError
from app.core.tasks import Background
from app.i18n import _
from app.workspace.app_files import WORKTREES
from app.workspace.worktrees import git

log = logging.getLogger(__name__)

FOLDER = WORKTREES  # the inode check of app_files.py leaves them out


@dataclass
class Record:
    isolated: bool | None = None  # the person's choice; None: the configuration's
    root: str = ""  # the repository's working tree ("" until the worktree is made)
    inside: str = "."  # the member's folder inside it
    base: str = ""  # the commit the worktree was made from


class Isolation:
    def __init__(self) -> None:
        self._folder: Path | None = None
        self._records: dict[tuple[str, str], Record] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._background = Background()  # a deleted channel's worktrees being removed

    def open(self, data_folder: Path | None) -> None:
        """The data folder's worktrees (none without one: isolation is then refused)."""
        self._folder = data_folder / FOLDER if data_folder is not None else None
        self._records = {}

    def path(self, channel: str, agent: str) -> Path:
        if self._folder is None:
            raise UserError(_("Worktrees need a data folder: open a configuration first"))
        return self._folder / channel / agent

    def record(self, channel: str, agent: str) -> Record:
        key = (channel, agent)
        if key not in self._records:
            self._records[key] = self._read(channel, agent)
        return self._records[key]

    def isolated(self, channel: str, agent: str, configured: bool) -> bool:
        choice = self.record(channel, agent).isolated
        return configured if choice is None else choice

    def exists(self, channel: str, agent: str) -> bool:
        record = self.record(channel, agent)
        return bool(record.base) and self._folder is not None and self.path(channel, agent).is_dir()

    def cwd(self, channel: str, agent: str, configured: bool) -> Path | None:
        """The member's folder in its worktree while it is isolated and the worktree exists."""
        if self._folder is None or not self.isolated(channel, agent, configured):
            return None
        if not self.exists(channel, agent):
            return None
        return self.path(channel, agent) / self.record(channel, agent).inside

    async def ensure(self, channel: str, agent: str, folder: Path) -> Path:
        """The member's folder in its worktree, made first when it does not exist."""
        async with self._locks.setdefault((channel, agent), asyncio.Lock()):
            record = self.record(channel, agent)
            if not self.exists(channel, agent):
                path = self.path(channel, agent)
                where = await asyncio.to_thread(git.folder_repo, folder)
                if path.exists():  # a worktree half made (a killed app): made again
                    await asyncio.to_thread(shutil.rmtree, path)
                record.base = await asyncio.to_thread(git.create, folder, channel, agent, path)
                record.root, record.inside = str(where.root), where.inside.as_posix()
                self._write(channel, agent)
            return self.path(channel, agent) / record.inside

    def choose(self, channel: str, agent: str, on: bool | None) -> None:
        self.record(channel, agent).isolated = on
        self._write(channel, agent)

    async def remove(self, channel: str, agent: str) -> None:
        """Removes the worktree and its branch; the record goes (the configuration decides)."""
        async with self._locks.setdefault((channel, agent), asyncio.Lock()):
            record = self.record(channel, agent)
            if record.root:
                await asyncio.to_thread(
                    git.remove, Path(record.root), channel, agent, self.path(channel, agent)
                )
            self._records.pop((channel, agent), None)
            if self._folder is not None:
                self._file(channel, agent).unlink(missing_ok=True)

    def forget_channel(self, channel: str) -> None:
        """A deleted channel's worktrees and branches go with it (as its checkpoints do), in
        the background; a failure is logged, the rest removed."""
        if self._folder is None or not (self._folder / channel).is_dir():
            return
        agents = [f.stem for f in (self._folder / channel).glob("*.json")]
        self._background.start(self._forget(channel, agents))

    async def _forget(self, channel: str, agents: list[str]) -> None:
        for agent in agents:
            try:
                await self.remove(channel, agent)
            except Exception:
                log.exception("could not remove the worktree of %s in %s", agent, channel)
        if self._folder is not None:
            await asyncio.to_thread(shutil.rmtree, self._folder / channel, True)

    async def settled(self) -> None:
        """Returns once the removals started so far have ended (tests)."""
        await self._background.wait()

    def _file(self, channel: str, agent: str) -> Path:
        return self.path(channel, agent).with_name(f"{agent}.json")

    def _read(self, channel: str, agent: str) -> Record:
        if self._folder is None:
            return Record()
        try:
            data = json.loads(self._file(channel, agent).read_text(encoding="utf-8"))
            isolated = data.get("isolated")
            return Record(
                isolated=isolated if isinstance(isolated, bool) else None,
                root=str(data.get("root", "")),
                inside=str(data.get("inside", ".")) or ".",
                base=str(data.get("base", "")),
            )
        except (OSError, ValueError, AttributeError) as error:
            if not isinstance(error, FileNotFoundError):
                log.warning("worktree record of %s in %s unreadable: %s", agent, channel, error)
            return Record()

    def _write(self, channel: str, agent: str) -> None:
        if self._folder is None:
            raise UserError(_("Worktrees need a data folder: open a configuration first"))
        record = self.record(channel, agent)
        target = self._file(channel, agent)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "isolated": record.isolated,
            "root": record.root,
            "inside": record.inside,
            "base": record.base,
        }
        write_atomic(target, json.dumps(data))
