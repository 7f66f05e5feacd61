"""A registry and agent archives served on 127.0.0.1 for the gallery's tests (issue 27).

    with GalleryServer() as server:
        archive = agent_archive()
        server.serve("/agent.tar.gz", archive)
        server.serve("/registry.json", registry_document([
            binary_entry("fake-agent", server.url("/agent.tar.gz"), sha256_of(archive)),
        ]))
        monkeypatch.setenv("SIDEKICKS_REGISTRY_URL", server.url("/registry.json"))

`serve_gallery()` does just that (the e2e tests' shortcut). `gate(path, after)` holds a response
after `after` bytes until the test opens the gate (a download caught mid-way, with no sleep).
The agent in the archive is `run` (`run.bat` on Windows): tests/fakes/fake_agent.py started by
this Python, answering `echo: <text>`.
`path_program(folder, name, code)` makes a program to put on PATH (a detected agent, a fake npx).
"""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import random
import sys
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.agents import FAKE

AGENT_ID = "fake-agent"
PROGRAM = "run.bat" if sys.platform == "win32" else "run"


@dataclass
class _Gate:
    after: int
    opened: threading.Event = field(default_factory=threading.Event)


class GalleryServer:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.gates: dict[str, _Gate] = {}
        self.redirects: dict[str, str] = {}  # path → Location of a 302
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                moved = server.redirects.get(self.path)
                if moved is not None:
                    self.send_response(302)
                    self.send_header("Location", moved)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = server.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                gate = server.gates.get(self.path)
                try:
                    if gate is None:
                        self.wfile.write(body)
                        return
                    self.wfile.write(body[: gate.after])
                    self.wfile.flush()
                    gate.opened.wait(10)
                    self.wfile.write(body[gate.after :])
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (a cancelled download)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{path}"

    def serve(self, path: str, body: bytes) -> None:
        self.files[path] = body

    def gate(self, path: str, after: int) -> threading.Event:
        """Holds `path`'s answer after `after` bytes until the returned event is set."""
        gate = _Gate(after)
        self.gates[path] = gate
        return gate.opened

    def __enter__(self) -> GalleryServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for gate in self.gates.values():
            gate.opened.set()
        self._httpd.shutdown()
        self._httpd.server_close()


def path_program(folder: Path, name: str, python: str) -> None:
    """A program `name` in `folder` (to put on PATH) running `python` code with this Python:
    a shell script, or a .bat on Windows."""
    script = folder / f"{name}.py"
    script.write_text(python, encoding="utf-8")
    if sys.platform == "win32":
        (folder / f"{name}.bat").write_text(f'@"{sys.executable}" "{script}" %*\r\n')
    else:
        launcher = folder / name
        launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
        launcher.chmod(0o755)


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def agent_script() -> bytes:
    """The program in the archive: the fake agent, run by this Python."""
    if sys.platform == "win32":
        return f'@"{sys.executable}" "{FAKE}" %*\r\n'.encode()
    return f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n'.encode()


def agent_archive(fmt: str = "tar.gz", padding: int = 0) -> bytes:
    """An archive holding `agent/<PROGRAM>` (and `agent/README` of `padding` bytes, to make
    a download long enough to catch mid-way)."""
    filler = random.Random(27).randbytes(padding)  # noise: it does not compress away
    files = {f"agent/{PROGRAM}": agent_script(), "agent/README": filler}
    buffer = io.BytesIO()
    if fmt == "zip":
        with zipfile.ZipFile(buffer, "w") as zipped:
            for name, data in files.items():
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o100755 << 16
                zipped.writestr(info, data)
        return buffer.getvalue()
    with tarfile.open(fileobj=buffer, mode="w:gz" if fmt == "tar.gz" else "w:bz2") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o755
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def binary_entry(
    agent_id: str, archive_url: str, sha256: str, version: str = "1.0.0", **extra: Any
) -> dict[str, Any]:
    """A registry entry whose binary target for every system is `archive_url`."""
    target = {"archive": archive_url, "sha256": sha256, "cmd": f"./agent/{PROGRAM}"}
    systems = ("darwin-aarch64", "darwin-x86_64", "linux-aarch64", "linux-x86_64")
    systems += ("windows-aarch64", "windows-x86_64")
    return {
        "id": agent_id,
        "name": extra.pop("name", "Fake Agent"),
        "version": version,
        "description": "A test agent that echoes.",
        "license": "MIT",
        "distribution": {"binary": {key: dict(target) for key in systems}},
        **extra,
    }


def registry_document(agents: list[dict[str, Any]]) -> bytes:
    return json.dumps({"version": "1.0.0", "agents": agents, "extensions": []}).encode()


@contextmanager
def serve_gallery(version: str = "1.0.0") -> Iterator[GalleryServer]:
    """A registry with one binary agent (`fake-agent`, `run` in its archive) and the archive."""
    with GalleryServer() as server:
        archive = agent_archive()
        server.serve("/agent.tar.gz", archive)
        entry = binary_entry(AGENT_ID, server.url("/agent.tar.gz"), sha256_of(archive), version)
        server.serve("/registry.json", registry_document([entry]))
        yield server
