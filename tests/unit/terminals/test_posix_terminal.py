"""A program on a real pseudo-terminal: it has a terminal of the size asked, its input is what
is written, resizes reach it, and killing it ends its whole process group."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from app.terminals.base import open_terminal
from tests.running import running
from tests.waiting import wait_for

pytestmark = pytest.mark.posix_only("POSIX pseudo-terminals (Windows: test_windows_terminal.py)")

SHOW_TTY = """
import os, shutil, signal, sys
def show(*_):
    size = shutil.get_terminal_size((0, 0))
    try:  # /dev/tty opens only for a process with a controlling terminal
        os.close(os.open("/dev/tty", os.O_RDONLY))
        ctty = True
    except OSError:
        ctty = False
    print(f"tty={os.isatty(0)} size={size.columns}x{size.lines} ctty={ctty}", flush=True)
signal.signal(signal.SIGWINCH, show)
show()
print("got:" + sys.stdin.readline().strip(), flush=True)
"""

SPAWNS_A_CHILD = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print(f"child={child.pid}", flush=True)
time.sleep(60)
"""


class Run:
    def __init__(self) -> None:
        self.text = ""
        self.exits: list[int | None] = []

    async def until(self, condition: Callable[[], object], timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.01)


def on_pty(script: str, scenario: Callable[..., Awaitable[None]]) -> Run:
    run = Run()

    async def main() -> None:
        def on_output(data: str) -> None:
            run.text += data

        terminal = await open_terminal(
            [sys.executable, "-c", script], {}, Path.cwd(), (90, 20), on_output, run.exits.append
        )
        try:
            await scenario(run, terminal)
        finally:
            await terminal.kill()

    asyncio.run(main())
    return run


def test_the_program_has_a_controlling_terminal_of_the_size_asked_and_reads_input() -> None:
    async def scenario(run: Run, terminal: object) -> None:
        await run.until(lambda: "size=90x20" in run.text)
        terminal.write("hello é\r")  # type: ignore[attr-defined]
        await run.until(lambda: run.exits)

    run = on_pty(SHOW_TTY, scenario)
    assert "tty=True size=90x20 ctty=True" in run.text
    assert "got:hello é" in run.text
    assert run.exits == [0]


def test_a_resize_reaches_the_program() -> None:
    async def scenario(run: Run, terminal: object) -> None:
        await run.until(lambda: "size=90x20" in run.text)
        terminal.resize(120, 40)  # type: ignore[attr-defined]
        await run.until(lambda: "size=120x40" in run.text)

    assert "size=120x40" in on_pty(SHOW_TTY, scenario).text


def test_killing_ends_the_program_and_what_it_started() -> None:
    children: list[int] = []

    async def scenario(run: Run, terminal: object) -> None:
        await run.until(lambda: "child=" in run.text)
        children.append(int(run.text.split("child=")[1].split()[0]))
        await terminal.kill()  # type: ignore[attr-defined]
        assert run.exits == [None]  # ended by a signal

    on_pty(SPAWNS_A_CHILD, scenario)
    assert children
    wait_for(lambda: not running(children[0]), what="the child to end")  # reaped by init
