"""Pages from elsewhere, for the tests that try to take the window away from the app: a local
HTTP server on another port (another origin) that records what it was asked for, and a stand-in
for the system browser that records the addresses it was given."""

from __future__ import annotations

import functools
import http.server
import shlex
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PAGE = b"<!doctype html><title>elsewhere</title><h1>elsewhere</h1>"
RECORDER = Path(__file__).with_name("browser_recorder.py")


class OtherOrigin:
    def __init__(self, server: http.server.ThreadingHTTPServer, requested: list[str]) -> None:
        self._server = server
        self.requested = requested

    def url(self, path: str = "/elsewhere.html") -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"


@contextmanager
def other_origin() -> Iterator[OtherOrigin]:
    requested: list[str] = []
    handler = functools.partial(_Handler, requested)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield OtherOrigin(server, requested)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class _Handler(http.server.BaseHTTPRequestHandler):
    def __init__(self, requested: list[str], *args: Any) -> None:
        self._requested = requested
        super().__init__(*args)

    def do_GET(self) -> None:
        self._requested.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    do_POST = do_GET

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the requests are recorded; nothing to print


def system_browser(record: Path) -> dict[str, str]:
    """The environment that makes Python's `webbrowser` (what the app opens links with) run the
    recorder instead of a browser: each address it is given becomes a line of `record`."""
    command = [sys.executable, str(RECORDER), str(record), "%s"]
    return {"BROWSER": " ".join(shlex.quote(part) for part in command)}


def opened(record: Path) -> list[str]:
    return record.read_text(encoding="utf-8").splitlines() if record.exists() else []
