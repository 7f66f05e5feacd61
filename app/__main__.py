"""`python -m app`: the Sidekicks desktop app (and, with --agent, a built-in agent on stdio)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

from app.version import __version__

if TYPE_CHECKING:
    from app.agents.supervisor import Tuning
    from app.sidekicks import Sidekicks


# `Sidekicks --launch-agent claude`: app/agents/launcher.py from the packaged app (no Python
# there to run it), what its default configuration writes on Windows.
LAUNCH_AGENT = "--launch-agent"
# Tests only: "STDIN,TERM", the seconds a stop waits on an agent's exit after closing its
# stdin, then after SIGTERM (the defaults, 5 and 3, are app/agents/supervisor.py's Tuning).
STOP_GRACES_HOOK = "SIDEKICKS_TEST_STOP_GRACES"


def tuning_from_environment() -> Tuning | None:
    raw = os.environ.get(STOP_GRACES_HOOK, "")
    if not raw:
        return None
    from app.agents.supervisor import Tuning

    stdin, term = (float(seconds) for seconds in raw.split(","))
    return Tuning(stdin_grace=stdin, term_grace=term)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sidekicks", description="A desktop home for local ACP coding agents."
    )
    parser.add_argument("--config", metavar="PATH", help="the configuration file to open")
    parser.add_argument("--version", action="version", version=f"Sidekicks {__version__}")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="run the backend without a window, until Ctrl-C (for servers and scripts)",
    )
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help="run the built-in agent NAME on stdin/stdout instead of the app (e.g. demo)",
    )
    # Hidden: the packaged app's smoke check on CI (app/bridge/self_test.py).
    parser.add_argument("--self-test", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def stop_signals() -> list[signal.Signals]:
    """What closes the headless app: SIGTERM, Ctrl-C, and on Windows Ctrl-Break (SIGBREAK, the
    CTRL_BREAK_EVENT a supervisor sends a console program's group there)."""
    names = ("SIGTERM", "SIGINT", "SIGBREAK")
    return [getattr(signal, name) for name in names if hasattr(signal, name)]


def _run_headless(args: argparse.Namespace) -> int:
    from app.sidekicks import Sidekicks

    app = Sidekicks(config=args.config, tuning=tuning_from_environment()).start()
    try:
        _serve_headless(app)
    finally:
        app.close()
    return 0


def _serve_headless(app: Sidekicks) -> None:
    # Handled before the ready line is printed: a supervisor may send SIGTERM the moment it reads
    # it, and must still get a clean close (app.close() in _run_headless, exit code 0), not the
    # default kill. Ctrl-C too, so that it never ends in a KeyboardInterrupt traceback.
    stop = threading.Event()
    for number in stop_signals():
        signal.signal(number, lambda *_: stop.set())
    info = app.api.ConfigService.Current()
    state = "valid" if info.valid else f"{len(info.problems)} problem(s)"
    created = " (created)" if info.created else ""
    print(f"Sidekicks {__version__}: {info.path}{created} [{info.source}], {state}")
    print("Running headless (no window). Press Ctrl-C to quit.", flush=True)
    # In steps: Windows runs a signal's handler only once the main thread's wait returns.
    while not stop.wait(0.5):
        pass


def _run_window(args: argparse.Namespace) -> int:
    """The window opens while the backend starts on its own thread (app/bridge/starting.py),
    the configuration resolved first: a file that cannot be read is said with no window."""
    from app.bridge.csp import BridgePatchError
    from app.bridge.http_server import ServerNotListening
    from app.bridge.self_test import report, requested
    from app.bridge.starting import BackgroundStart
    from app.config.startup import startup_config
    from app.core.errors import ConfigError

    startup = startup_config(args.config)  # raises ConfigError before any window
    tuning = tuning_from_environment()

    def start() -> Sidekicks:
        from app.sidekicks import Sidekicks

        return Sidekicks(config=args.config, tuning=tuning).start(startup)

    starting = BackgroundStart(start).begin()
    code = 0
    try:
        from app.bridge.window import run_window

        try:
            code = run_window(starting, self_test=requested(args.self_test))
        except BridgePatchError as err:
            # pywebview changed under a patch: no window rather than a broken bridge.
            logging.getLogger("app").error("refusing to open the window: %s", err)
            print(f"sidekicks: {err}", file=sys.stderr)
            report(f"refused to open the window: {err}")
            code = 3
        except ServerNotListening as err:
            # No port could serve the page: say why rather than end on a traceback.
            logging.getLogger("app").error("could not open the window: %s", err)
            print(f"sidekicks: {err}", file=sys.stderr)
            report(f"could not open the window: {err}")
            code = 1
        try:
            starting.result()  # what its start raised, said here (the window closed then)
        except ConfigError as err:  # read when resolved, unreadable when opened
            print(f"sidekicks: {err}", file=sys.stderr)
            code = 2
        except Exception as err:
            logging.getLogger("app").exception("the backend did not start")
            print(f"sidekicks: the backend did not start: {err!r}", file=sys.stderr)
            code = 1
    finally:
        starting.close()
    return code


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [LAUNCH_AGENT]:
        # Before argparse: what follows is the agent's command line, options included.
        from app.agents.launcher import main as launch_agent

        return launch_agent(argv[1:])
    args = parse_args(argv)
    if args.agent:
        # A built-in agent speaks ACP on stdio: nothing else may write to stdout.
        from app.agents.builtin import run_builtin

        return run_builtin(args.agent)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from app.core.arenas import limit_arenas

    limit_arenas()  # before the core's threads and the window's processes start
    from app.core.errors import ConfigError

    try:
        code = _run_headless(args) if args.headless else _run_window(args)
    except ConfigError as err:
        print(f"sidekicks: {err}", file=sys.stderr)
        return 2
    if not args.headless:
        # The window is gone and the backend closed (agents stopped, history flushed). A bridge
        # call in flight when the window closed can leave one of pywebview's threads waiting
        # forever for the page; do not let it keep the process alive.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
