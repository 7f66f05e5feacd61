"""app/terminals/windows.py against pywinpty's PtyProcess as it behaves (winpty/ptyprocess.py),
simulated here on any system with a fake `winpty` module; the real ConPTY is exercised by the
Windows-only tests at the end (the Windows CI runner)."""

from __future__ import annotations

import asyncio
import queue
import re
import subprocess
import sys
import types
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from app.terminals import windows
from app.terminals.base import open_terminal

END = object()


class FakeWinptyError(Exception):
    pass


class FakePty:
    """PtyProcess: a blocking read of text, EOFError at the end, write refused once ended."""

    spawned: ClassVar[list[FakePty]] = []

    def __init__(self, argv: list[str], cwd: str, env: dict[str, str], dimensions: Any) -> None:
        self.argv, self.cwd, self.env, self.dimensions = argv, cwd, env, dimensions
        self.pid: int | None = 4242
        self.exitstatus: int | None = None
        self.written: list[str] = []
        self.closed = self.terminated = False
        self._chunks: queue.Queue[object] = queue.Queue()
        self._alive = True

    @classmethod
    def spawn(
        cls, argv: list[str], cwd: str, env: dict[str, str], dimensions: Any = (24, 80)
    ) -> FakePty:
        if argv[0] == "missing":
            raise FileNotFoundError("The command was not found or was not executable: missing.")
        if argv[0] == "broken":
            raise FakeWinptyError("CreateProcess failed")
        pty = cls(argv, cwd, env, dimensions)
        cls.spawned.append(pty)
        return pty

    # the program's side
    def prints(self, text: str) -> None:
        self._chunks.put(text)

    def exits(self, code: int) -> None:
        self.exitstatus, self._alive = code, False
        self._chunks.put(END)

    # PtyProcess's API
    def read(self, size: int = 1024) -> str:
        item = self._chunks.get(timeout=10)
        if item is END:
            self._chunks.put(END)
            raise EOFError("Pty is closed")
        assert isinstance(item, str)
        return item

    def isalive(self) -> bool:
        return self._alive

    def write(self, text: str) -> int:
        if not self._alive:
            raise EOFError("Pty is closed")
        self.written.append(text)
        return len(text)

    def setwinsize(self, rows: int, cols: int) -> None:
        self.dimensions = (rows, cols)

    def terminate(self, force: bool = False) -> bool:
        self.terminated = True
        self.exits(1)
        return True

    def close(self, force: bool = False) -> None:
        self.closed = True


@pytest.fixture(autouse=True)
def fake_winpty(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("winpty")
    module.PtyProcess = FakePty  # type: ignore[attr-defined]
    module.WinptyError = FakeWinptyError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "winpty", module)
    FakePty.spawned = []


class Run:
    def __init__(self) -> None:
        self.text = ""
        self.exits: list[int | None] = []
        self.text_at_exit = ""

    def on_output(self, data: str) -> None:
        self.text += data

    def on_exit(self, code: int | None) -> None:
        self.exits.append(code)
        self.text_at_exit = self.text

    async def until(self, condition: Callable[[], object], timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.01)


def simulate(
    scenario: Callable[[Run, windows.WindowsTerminal, FakePty], Awaitable[None]],
    command: list[str] | None = None,
) -> Run:
    run = Run()

    async def main() -> None:
        terminal = await windows.WindowsTerminal.spawn(
            command or ["login", "--device"],
            {"TOKEN": "1"},
            Path("C:/work"),
            (100, 30),
            run.on_output,
            run.on_exit,
        )
        await scenario(run, terminal, FakePty.spawned[-1])

    asyncio.run(main())
    return run


def test_the_program_is_spawned_with_rows_and_columns_in_pywinptys_order() -> None:
    async def scenario(run: Run, terminal: windows.WindowsTerminal, pty: FakePty) -> None:
        assert pty.argv == ["login", "--device"]
        assert pty.dimensions == (30, 100)  # (rows, cols)
        assert pty.cwd == str(Path("C:/work"))
        assert pty.env["TOKEN"] == "1" and pty.env["TERM"] == "xterm-256color"
        assert terminal.pid == 4242
        terminal.resize(120, 40)
        assert pty.dimensions == (40, 120)
        pty.exits(0)
        await run.until(lambda: run.exits)

    simulate(scenario)


def test_output_reaches_the_page_without_pywinptys_empty_read_marker() -> None:
    async def scenario(run: Run, terminal: windows.WindowsTerminal, pty: FakePty) -> None:
        pty.prints("Open https://example.com/device0011Ignore and enter ")
        pty.prints("0011Ignore")
        pty.prints("WXYZ-1234\r\n")
        await run.until(lambda: "WXYZ" in run.text)
        pty.exits(0)
        await run.until(lambda: run.exits)

    run = simulate(scenario)
    assert run.text == "Open https://example.com/device and enter WXYZ-1234\r\n"


def test_what_the_program_wrote_last_arrives_before_its_exit() -> None:
    async def scenario(run: Run, terminal: windows.WindowsTerminal, pty: FakePty) -> None:
        terminal.write("y\r")
        assert pty.written == ["y\r"]
        pty.prints("signed in\r\n")
        pty.exits(3)
        await run.until(lambda: run.exits)
        assert pty.closed, "pywinpty's sockets are released"

    run = simulate(scenario)
    assert run.exits == [3]
    assert run.text_at_exit == "signed in\r\n"


def test_typing_into_a_program_that_just_ended_is_ignored() -> None:
    async def scenario(run: Run, terminal: windows.WindowsTerminal, pty: FakePty) -> None:
        pty._alive = False  # ended, not yet noticed by the watch
        terminal.write("too late")
        terminal.resize(80, 24)
        pty.exits(0)
        await run.until(lambda: run.exits)
        terminal.write("after the end")
        assert pty.written == []

    simulate(scenario)


def test_a_missing_program_and_a_pseudo_console_failure_are_os_errors() -> None:
    with pytest.raises(FileNotFoundError) as missing:
        simulate(lambda *_: asyncio.sleep(0), ["missing"])
    assert (missing.value.strerror, missing.value.filename) == ("not found on PATH", "missing")
    with pytest.raises(OSError, match="CreateProcess failed"):
        simulate(lambda *_: asyncio.sleep(0), ["broken"])


def test_kill_ends_the_tree_without_a_console_window_then_the_program_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[tuple[list[str], int]] = []

    def taskkill(command: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        ran.append((command, options["creationflags"]))
        return subprocess.CompletedProcess(command, 128)  # taskkill failed: nothing ended

    monkeypatch.setattr(subprocess, "run", taskkill)
    monkeypatch.setattr(windows, "KILL_GRACE", 0.1)

    async def scenario(run: Run, terminal: windows.WindowsTerminal, pty: FakePty) -> None:
        await terminal.kill()
        assert run.exits == [1]
        assert pty.terminated, "after the grace, the program itself"
        await terminal.kill()  # again: already done

    simulate(scenario)
    assert ran == [(["taskkill", "/T", "/F", "/PID", "4242"], windows.CREATE_NO_WINDOW)]


# ---- the real ConPTY (Windows CI runner) --------------------------------------------------------


def on_conpty(script: str, scenario: Callable[[Run, Any], Awaitable[None]]) -> Run:
    run = Run()

    async def main() -> None:
        terminal = await open_terminal(
            [sys.executable, "-c", script], {}, Path.cwd(), (90, 20), run.on_output, run.on_exit
        )
        try:
            await scenario(run, terminal)
        finally:
            await terminal.kill()

    asyncio.run(main())
    return run


@pytest.mark.windows_only("a real ConPTY through pywinpty")
def test_on_windows_the_program_runs_on_a_console_of_the_size_asked_and_reads_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "winpty")  # the real one
    script = (
        "import shutil, sys\n"
        "size = shutil.get_terminal_size((0, 0))\n"
        "print(f'tty={sys.stdin.isatty()} size={size.columns}x{size.lines}', flush=True)\n"
        "print('got:' + input().strip(), flush=True)\n"
    )

    async def scenario(run: Run, terminal: Any) -> None:
        await run.until(lambda: "size=" in run.text, timeout=30)
        terminal.write("hello\r\n")
        await run.until(lambda: run.exits, timeout=30)

    run = on_conpty(script, scenario)
    assert "tty=True size=90x20" in run.text
    assert "got:hello" in run.text
    assert run.exits == [0]


@pytest.mark.windows_only("a real ConPTY through pywinpty")
def test_on_windows_kill_ends_a_program_and_the_child_it_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.running import running
    from tests.waiting import wait_for

    monkeypatch.delitem(sys.modules, "winpty")
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(f'child={child.pid}', flush=True)\n"
        "time.sleep(60)\n"
    )
    pids: list[int] = []

    def child(run: Run) -> int | None:  # the console may wrap the line in escape sequences
        found = re.search(r"child=(\d+)\D", run.text)
        return int(found.group(1)) if found else None

    async def scenario(run: Run, terminal: Any) -> None:
        await run.until(lambda: child(run), 30)
        pids.extend([terminal.pid, child(run) or 0])
        await terminal.kill()
        assert len(run.exits) == 1

    on_conpty(script, scenario)
    wait_for(lambda: not any(running(pid) for pid in pids), timeout=10, what="both to end")
