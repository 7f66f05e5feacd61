"""The ACP programs and the runners (npx, uvx) found on PATH, with their `--version` text.

Each program found is asked `--version` (2 s at most, in parallel, its tree ended past that)
without blocking the core loop; the answers are kept for the session and asked again on
GalleryService.Refresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from app.agents.gallery.builtin import KNOWN_PROGRAMS
from app.core import lifeline, process_tree
from app.core.process_tree import ProcessTree, TreeMark
from app.core.run_records import records

log = logging.getLogger(__name__)

VERSION_TIMEOUT = 2.0
RUNNERS = ("npx", "uvx")
_MAX_VERSION = 80
# `--version` should print a version and nothing else: no check for a newer release over the
# network (npm's and several CLIs' update notifiers honour these; the user's own values win).
QUIET_ENV = {"NO_UPDATE_NOTIFIER": "1", "NPM_CONFIG_UPDATE_NOTIFIER": "false"}


@dataclass(frozen=True)
class Found:
    program: str
    path: str
    version: str  # the first line `--version` printed, "" when it said nothing in time


class Detector:
    def __init__(self) -> None:
        self._found: dict[str, Found] | None = None
        self._looking: asyncio.Task[dict[str, Found]] | None = None

    async def found(self) -> dict[str, Found]:
        """The programs on PATH (looked for once per session, or again after `forget`)."""
        if self._found is not None:
            return self._found
        if self._looking is None or self._looking.done():
            self._looking = asyncio.get_running_loop().create_task(look_on_path())
        self._found = await asyncio.shield(self._looking)
        return self._found

    def forget(self) -> None:
        self._found = None


async def look_on_path() -> dict[str, Found]:
    programs = [known.program for known in KNOWN_PROGRAMS] + list(RUNNERS)
    paths = {p: shutil.which(p) for p in programs}
    present = [(p, path) for p, path in paths.items() if path]
    versions = await asyncio.gather(*(version_of(path) for _p, path in present))
    return {p: Found(p, path, v) for (p, path), v in zip(present, versions, strict=True)}


async def version_of(path: str) -> str:
    """The first non-empty line of `<path> --version` within VERSION_TIMEOUT, else "".

    Started as a tree of its own (an npx.cmd is cmd.exe running node on Windows; a script may
    start a helper), ended as a whole when it is late, like an agent's command is."""
    options: dict[str, Any] = dict(process_tree.spawn_options())
    if sys.platform != "win32":
        options["preexec_fn"] = lifeline.preexec()
    mark = TreeMark()
    try:
        proc = await asyncio.create_subprocess_exec(
            path,
            "--version",
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=mark.environment(QUIET_ENV | dict(os.environ)),
            **options,
        )
    except OSError as err:
        log.info("%s --version could not run: %s", path, err)
        return ""
    records.add(proc.pid, [path, "--version"])
    tree = process_tree.adopt(proc.pid, lambda: proc.returncode is not None, mark)
    out = b""
    try:
        out, _err = await asyncio.wait_for(proc.communicate(), VERSION_TIMEOUT)
    except TimeoutError:
        pass
    finally:
        # shielded: a Refresh cancelled meanwhile still ends what it started
        await asyncio.shield(_end(tree, proc))
        records.remove(proc.pid)
    for line in out.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line:
            return line[:_MAX_VERSION]
    return ""


async def _end(tree: ProcessTree, proc: asyncio.subprocess.Process) -> None:
    try:
        await process_tree.end(tree, 0.0, done=lambda: proc.returncode is not None)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 1.0)
    finally:
        tree.close()
