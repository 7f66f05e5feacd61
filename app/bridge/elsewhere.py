"""Another origin for the self-test to send the window to: a page served on 127.0.0.1 on another
port, which counts the requests it gets. A window that asks for it was let through by the
navigation lock (WebKit keeps the old page when a navigation fails, so an unreachable address
would prove nothing)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PAGE = b"<!doctype html><meta charset=utf-8><title>Elsewhere</title><p>Not the app."


class Elsewhere:
    def __init__(self) -> None:
        self.requests = 0
        lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with lock:
                    owner.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the self-test says what matters

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/elsewhere"
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="sidekicks-self-test-elsewhere", daemon=True
        )

    def __enter__(self) -> Elsewhere:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()
