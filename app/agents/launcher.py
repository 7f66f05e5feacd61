"""Starts a well-known ACP agent by short name: scripts/agents.sh in Python, for systems without
bash (Windows) and for the packaged app, which has no Python of its own to offer.

    python app/agents/launcher.py claude|codex|gemini|opencode|goose [ARGS…]
    python app/agents/launcher.py run COMMAND [ARGS…]     any other ACP program
    python -m app.agents.launcher …                       the same, from the repository
    Sidekicks --launch-agent …                            the same, from the packaged app

As agents.sh: the agent runs with the user's environment (plus what Sidekicks adds from `env:`)
and inherits this process's stdin/stdout (the ACP channel) and stderr. Its program is looked up
on PATH (on Windows with PATHEXT: `npx` is `npx.cmd`); not found, the launcher says so and exits
127. When AGENTS_SH_HELPER is set, that shell command is started first (a local model server,
say), its output on stderr, and stopped after the agent.

Stopping. Sidekicks closes stdin (the agent sees EOF: it reads it directly), then asks the
launcher's group to end: SIGTERM on POSIX, CTRL_BREAK_EVENT on Windows. The launcher then stops
the agent, then the helper — each asked first (SIGTERM; CTRL_BREAK_EVENT to its own process
group on Windows), then killed after CHILD_GRACE (SIGKILL; TerminateJobObject: on Windows each
child has a kill-on-close job of its own, so its whole tree goes) — and only then exits, with
128 + the signal's number. When the agent ends by itself, the helper is stopped and the
launcher exits with the agent's code. On POSIX the children stay in the launcher's process group,
so Sidekicks' own SIGKILL of the group (after its grace) still reaches them; on Windows
Sidekicks' job for the launcher holds them (jobs nest).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.core.process_tree import ProcessTree

AGENTS: dict[str, list[str]] = {
    "claude": ["npx", "-y", "@agentclientprotocol/claude-agent-acp"],
    "codex": ["npx", "-y", "@zed-industries/codex-acp"],
    "gemini": ["npx", "-y", "@google/gemini-cli", "--acp"],
    "opencode": ["opencode", "acp"],
    "goose": ["goose", "acp"],
}
HELPER_VARIABLE = "AGENTS_SH_HELPER"
CHILD_GRACE = 2.0
POLL_SECONDS = 0.05
USAGE = "usage: launcher claude|codex|gemini|opencode|goose [ARGS…] | launcher run COMMAND [ARGS…]"
NAME = "launcher"
WINDOWS = sys.platform == "win32"


class UsageError(Exception):
    pass


def agent_command(argv: list[str]) -> list[str]:
    """The command line the short name (or `run COMMAND…`) stands for, with ARGS appended."""
    if not argv:
        raise UsageError("")
    name, args = argv[0], argv[1:]
    if name == "run":
        if not args:
            raise UsageError("")
        return args
    if name not in AGENTS:
        raise UsageError(f"{NAME}: unknown agent '{name}'")
    return [*AGENTS[name], *args]


def say(text: str) -> None:
    if sys.stderr is not None:  # a windowed app started without handles has none
        print(text, file=sys.stderr, flush=True)


class Child:
    """A started program, stopped the same way whatever it is (the agent, the helper)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.tree: ProcessTree | None = None
        if sys.platform == "win32":
            from app.core.process_tree_windows import JobTree

            self.tree = JobTree.adopt(proc.pid, lambda: proc.poll() is not None)

    @classmethod
    def start(cls, command: list[str] | str, **options: Any) -> Child:
        if sys.platform == "win32":
            from app.core.process_tree_windows import creation_flags

            options["creationflags"] = creation_flags()
        return cls(subprocess.Popen(command, **options))

    def running(self) -> bool:
        if self.tree is not None:
            return self.tree.alive()
        return self.proc.poll() is None

    def stop(self, grace: float = CHILD_GRACE) -> None:
        """Asked to end, then killed after `grace`; returns once it is gone."""
        if self.running():
            if self.tree is not None:
                self.tree.signal_soft()
            else:
                self.proc.send_signal(signal.SIGTERM)  # by pid, like agents.sh's `kill`
            deadline = time.monotonic() + grace
            while self.running() and time.monotonic() < deadline:
                time.sleep(POLL_SECONDS)
            if self.running():
                if self.tree is not None:
                    self.tree.kill()
                else:
                    self.proc.kill()
        # Unkillable for a moment (uninterruptible I/O): do not hang on it.
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        if self.tree is not None:
            self.tree.close()


class Stop:
    """The signal that asked the launcher to stop, caught on the main thread."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.asked = threading.Event()
        names = ("SIGTERM", "SIGINT", "SIGBREAK")  # SIGBREAK: CTRL_BREAK_EVENT, on Windows
        for sig in filter(None, (getattr(signal, name, None) for name in names)):
            signal.signal(sig, self._caught)

    def _caught(self, signum: int, _frame: object) -> None:
        if self.signum is None:
            self.signum = signum
        self.asked.set()


def std_handles() -> dict[str, Any]:
    """Windows: our stdin/stdout (the ACP channel) and stderr, handed on by name — Popen given
    none starts the child without inheriting any handle. One we do not have is left out."""
    if not WINDOWS:
        return {}  # inherited as they are
    handles: dict[str, Any] = {}
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        try:
            os.fstat(fd)
        except OSError:
            continue
        handles[name] = fd
    return handles


def start_helper(command: str) -> Child:
    say(f"{NAME}: starting helper ({command})")
    output = sys.stderr if sys.stderr is not None else subprocess.DEVNULL
    # bash -c, as agents.sh runs it (a single command is exec'd: the pid stopped is the
    # helper's own); cmd.exe /c on Windows.
    shell = None if WINDOWS else shutil.which("bash")
    return Child.start(
        command, shell=True, executable=shell, stdin=subprocess.DEVNULL, stdout=output
    )


def exit_code(returncode: int) -> int:
    """The agent's exit code as a shell reports it (killed by signal N: 128 + N)."""
    return 128 - returncode if returncode < 0 else returncode


def main(argv: list[str] | None = None) -> int:
    try:
        command = agent_command(sys.argv[1:] if argv is None else argv)
    except UsageError as err:
        if str(err):
            say(str(err))
        say(USAGE)
        return 2
    program = shutil.which(command[0])
    if program is None:
        say(f"{NAME}: '{command[0]}' was not found on PATH (PATH={os.environ.get('PATH', '')})")
        return 127
    stop = Stop()
    helper_command = os.environ.get(HELPER_VARIABLE, "")
    helper = start_helper(helper_command) if helper_command else None
    try:
        agent = Child.start([program, *command[1:]], **std_handles())
    except OSError as err:
        say(f"{NAME}: '{program}' could not be started: {err}")
        if helper is not None:
            helper.stop()
        return 126
    try:
        while agent.proc.poll() is None and not stop.asked.wait(POLL_SECONDS):
            pass
    finally:
        agent.stop()
        if helper is not None:
            say(f"{NAME}: stopping helper ({helper_command})")
            helper.stop()
    if stop.signum is not None:
        return 128 + stop.signum
    assert agent.proc.returncode is not None
    return exit_code(agent.proc.returncode)


if __name__ == "__main__":
    # Run as a file (`python …/app/agents/launcher.py`, what the default configuration writes
    # from source): the repository must be importable for the Windows job code.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main())
