"""The `Workspace` (app/acp/workspace.py) of one agent in one channel: its file reads and
writes, and its commands (forwarded to the channel's terminals).

Reads are allowed wherever the person can read (as Zed does); each read is remembered as "this
agent saw this version" so that a later write over someone else's change is noticed. Writes go
inside the agent's roots (its `cwd` and `folders:`) freely; elsewhere only if the person allows
it in the conversation. Every write is recorded as a change (app/workspace/changes.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.acp.workspace import TerminalExit, TerminalOutput, TerminalRequest, WorkspaceError
from app.i18n import _
from app.workspace import files, located_io
from app.workspace.app_files import AppFiles
from app.workspace.changes import PERSON, REVERTED, ChangeLog
from app.workspace.files import Version
from app.workspace.located import Location, locate, located
from app.workspace.roots import Roots


class Terminals(Protocol):
    """The commands agents run (app/workspace/terminals.py)."""

    async def create(self, request: TerminalRequest) -> str: ...

    async def output(self, terminal_id: str) -> TerminalOutput: ...

    async def wait(self, terminal_id: str) -> TerminalExit: ...

    async def kill(self, terminal_id: str) -> None: ...

    async def release(self, terminal_id: str) -> None: ...


@dataclass(frozen=True, slots=True)
class OutsideWrite:
    """A write the person is asked about: the path the agent gave, the file it really leads
    to, whether a link led there, and whether the agent has folders of its own at all."""

    asked: Path
    real: Path
    through_link: bool
    has_folders: bool


class WorkspaceHost(Protocol):
    """What the workspace needs from the conversation it works for (app/channels)."""

    def answer_message_id(self) -> str:
        """The agent's answer in progress in this channel ("" when it is not answering)."""
        ...

    async def allow_outside_write(self, write: OutsideWrite) -> bool:
        """Asks the person whether the agent may write `write.real`, outside its folders."""
        ...

    def conflict_notice(self, text: str) -> None:
        """Shows a notice in the conversation."""
        ...


class SessionWorkspace:
    def __init__(
        self,
        *,
        channel: str,
        agent: str,
        roots: Roots,
        app_files: AppFiles,
        changes: ChangeLog,
        host: WorkspaceHost,
        terminals: Terminals | None = None,
        cwd: Path | None = None,
    ) -> None:
        """`cwd`: the session's own folder when it is not the agent's (an isolated member's
        worktree, issue 28); its session opens there (app/acp/workspace.py `session_cwd`)."""
        self.channel, self.agent = channel, agent
        self.cwd = cwd
        self.roots = roots
        self.app_files = app_files
        self._changes = changes
        self._host = host
        self._terminals = terminals
        self._seen: dict[Path, Version] = {}  # by resolved path: what this agent last saw

    # ---- files -------------------------------------------------------------------------------

    async def read_text_file(self, path: str, line: int | None, limit: int | None) -> str:
        asked = files.absolute(path)
        # Off the core loop: a large file takes a while to read, check and hash.
        text, version, real = await asyncio.to_thread(_read, asked, self.app_files)
        self._seen[real] = version
        return files.window(text, line, limit)

    async def write_text_file(self, path: str, content: str) -> None:
        asked = files.absolute(path)
        data = _encoded(asked, content)
        where = await asyncio.to_thread(locate, asked)
        try:
            await self._write(where, content, data)
        finally:
            where.close()

    async def _write(self, where: Location, content: str, data: bytes) -> None:
        """Writes at `where`, checked once: the folder handle it holds is where the write
        lands, whatever the path leads to by the time the person answers."""
        self.app_files.check_write(where.real)
        inside = self.roots.hold(where.real)
        if not inside and not await self._host.allow_outside_write(
            OutsideWrite(where.asked, where.real, where.through_link, bool(self.roots.folders))
        ):
            raise WorkspaceError(
                "refused",
                _("writing {path} was refused: it is outside the agent's folders").format(
                    path=where.real
                ),
            )
        target = where.real
        # One write at a time per file (across agents and channels, and reverts), so that the
        # text before is the text replaced; the file work happens off the core loop.
        async with self._changes.writing(target):
            before, now = await asyncio.to_thread(_before, where)
            conflict = self._conflict(target, now, Version.of(data))
            await asyncio.to_thread(located_io.write, where, data, create_folders=inside)
            self._seen[target] = Version.of(data)
            await self._changes.record(
                channel=self.channel,
                message_id=self._host.answer_message_id(),
                agent=self.agent,
                path=target,
                before=before,
                after=content,
                conflict_with=conflict,
                through_link=str(where.asked) if where.through_link else "",
            )

    def _conflict(self, target: Path, current: Version | None, written: Version) -> str:
        """Who changed the file since this agent last read or wrote it ("" when nobody did);
        the conversation is told."""
        seen = self._seen.get(target)
        if seen is None:
            return ""  # never seen: the agent writes it knowingly whole
        if current in (seen, written):
            # Unchanged, or it already holds what this write puts there: nobody's work is
            # written over. (opencode's edit sends its fs/write without waiting on it, then its
            # own tool writes the same bytes: on a busy machine the tool's write lands first.)
            return ""
        who = self._changes.who_changed(target, current)
        agent = f"@{self.agent}"
        if who == PERSON:
            notice = _(
                "{agent} wrote {path}, which someone outside Sidekicks changed since {agent} "
                "last read it"
            ).format(agent=agent, path=target)
        elif who == REVERTED:
            who = PERSON
            notice = _(
                "{agent} wrote {path}, which you reverted since {agent} last read it"
            ).format(agent=agent, path=target)
        else:
            notice = _(
                "{agent} wrote {path}, which {other} changed since {agent} last read it"
            ).format(agent=agent, path=target, other=f"@{who}")
        self._host.conflict_notice(notice)
        return who

    # ---- terminals ---------------------------------------------------------------------------

    def _require_terminals(self) -> Terminals:
        if self._terminals is None:
            raise WorkspaceError("refused", _("this session cannot run commands"))
        return self._terminals

    async def create_terminal(self, request: TerminalRequest) -> str:
        return await self._require_terminals().create(request)

    async def terminal_output(self, terminal_id: str) -> TerminalOutput:
        return await self._require_terminals().output(terminal_id)

    async def wait_for_terminal_exit(self, terminal_id: str) -> TerminalExit:
        return await self._require_terminals().wait(terminal_id)

    async def kill_terminal(self, terminal_id: str) -> None:
        await self._require_terminals().kill(terminal_id)

    async def release_terminal(self, terminal_id: str) -> None:
        await self._require_terminals().release(terminal_id)


def _encoded(asked: Path, content: str) -> bytes:
    try:
        return content.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate (e.g. "\ud800") has no UTF-8 form
        raise WorkspaceError(
            "invalid",
            _(
                "the text for {path} cannot be written as UTF-8 (an invalid character at "
                "offset {offset}): nothing was written"
            ).format(path=asked, offset=error.start),
        ) from None


def _read(asked: Path, app_files: AppFiles) -> tuple[str, Version, Path]:
    with located(asked) as where:
        app_files.check_read(where.real)  # before opening: a refused file is not even opened
        # Then its inode, on the file opened: a hard link elsewhere to a refused file.
        data = located_io.read(where, lambda opened: app_files.check_read(where.real, opened))
        return files.decode(where.real, data), Version.of(data), where.real


def _before(where: Location) -> tuple[str | None, Version | None]:
    """The file's text and version before a write (None, None: it does not exist). A file
    that is not UTF-8 text is not overwritten: its change could not be recorded to revert."""
    data = located_io.current(where)
    if data is None:
        return None, None
    return files.decode(where.real, data), Version.of(data)
