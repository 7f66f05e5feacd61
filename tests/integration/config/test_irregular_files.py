"""Only regular files are read as a configuration: a named pipe (which would block the read
until someone writes), a device such as /dev/zero (which never ends) or a socket is a clear error
at once — through Open, at the start, and from the command line."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import ConfigError

pytestmark = pytest.mark.posix_only("named pipes, UNIX sockets and /dev/zero are POSIX files")

ROOT = Path(__file__).resolve().parents[3]
VALID = "theme: dark\nagents:\n  - name: demo\n    builtin: demo\n"
NOT_REGULAR = "is not a regular file"


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    yield path
    # If a reader is still blocked on the pipe, a writer lets it go (O_NONBLOCK: none is waiting).
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.fixture
def unix_socket() -> Iterator[Path]:
    # A socket's path has at most 104 bytes on macOS, where tmp_path alone may be longer.
    with tempfile.TemporaryDirectory(dir="/tmp") as short:
        path = Path(short).resolve() / "socket.yaml"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        yield path
        server.close()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Sidekicks]:
    config = tmp_path / "sidekicks.yaml"
    config.write_text(VALID, encoding="utf-8")
    with Sidekicks(config=config) as sk:
        yield sk


def _open_in_thread(sk: Sidekicks, path: Path) -> BaseException | None:
    """The error Open raised; fails the test if it has not answered within 5 s."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            sk.api.ConfigService.Open(str(path))
            outcome.append(None)
        except BaseException as err:  # handed to the test
            outcome.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5)
    assert outcome, f"Open({path}) did not answer within 5 s"
    return outcome[0]


@pytest.mark.parametrize(
    "target", ["fifo", "unix_socket", "dev_zero"], ids=["named-pipe", "socket", "dev-zero"]
)
def test_open_refuses_what_is_not_a_regular_file_at_once(
    app: Sidekicks, target: str, request: pytest.FixtureRequest
) -> None:
    path = Path("/dev/zero") if target == "dev_zero" else request.getfixturevalue(target)
    before = app.api.ConfigService.Current()
    error = _open_in_thread(app, path)
    assert isinstance(error, ConfigError)
    assert str(error).startswith(f"{path} {NOT_REGULAR}")
    assert app.api.ConfigService.Current() == before


def test_a_start_on_a_named_pipe_is_a_clear_error(fifo: Path) -> None:
    with pytest.raises(ConfigError, match=NOT_REGULAR):
        Sidekicks(config=fifo).start()


def test_a_start_on_dev_zero_from_the_environment_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SIDEKICKS_CONFIG", "/dev/zero")
    with pytest.raises(ConfigError, match=f"/dev/zero {NOT_REGULAR}"):
        Sidekicks().start()


def test_the_command_line_on_a_named_pipe_exits_at_once_with_a_clear_message(fifo: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app", "--headless", "--config", str(fifo)],
        cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert f"{fifo} {NOT_REGULAR}" in result.stderr
