"""The scripted model server's plumbing: an HTTP server on 127.0.0.1 (never another address) in a
thread of the test, which hands each request to the dialects it was given (Anthropic Messages,
OpenAI Responses and Chat Completions, Gemini: their own modules here) and keeps every request
for the test to read. A dialect answers the paths it knows and returns None for the others;
a request no dialect knows gets a 404 that names it, so an adapter asking for something new
fails loudly instead of hanging."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass
class Request:
    method: str
    path: str  # with its query
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    # Server-sent events or any streamed body: written chunk by chunk, flushed after each.
    chunks: Iterable[bytes] | None = None

    @staticmethod
    def json(data: Any, status: int = 200) -> Reply:
        return Reply(status, {"content-type": "application/json"}, json.dumps(data).encode())

    @staticmethod
    def events(events: Iterable[tuple[str | None, Any]]) -> Reply:
        """Server-sent events: (event name or None, JSON data) each."""

        def chunks() -> Iterator[bytes]:
            for name, data in events:
                head = f"event: {name}\n" if name else ""
                yield f"{head}data: {json.dumps(data)}\n\n".encode()

        return Reply(200, {"content-type": "text/event-stream"}, chunks=chunks())


Dialect = Callable[[Request], Reply | None]


class ScriptedServer:
    """`with ScriptedServer([dialect, …]) as server:` — `server.url` is its base address."""

    def __init__(self, dialects: list[Dialect]) -> None:
        self.dialects = dialects
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def seen(self, path_part: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if path_part in r.path]

    def _answer(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
        for dialect in self.dialects:
            reply = dialect(request)
            if reply is not None:
                return reply
        return Reply.json(
            {"error": f"the scripted server knows no {request.method} {request.path}"}, 404
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass  # the test reads `server.requests`

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._answer(Request(self.command, self.path, headers, body))
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.chunks is None:
                    self.send_header("content-length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                    return
                self.send_header("transfer-encoding", "chunked")
                self.send_header("cache-control", "no-cache")
                self.end_headers()
                for chunk in reply.chunks:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            do_GET = do_POST = do_PUT = do_DELETE = _serve

        return Handler
