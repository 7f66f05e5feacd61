"""pywebview's HTTP server, listening before the window asks it for the page.

pywebview's `BottleServer.start_server` picks a free port, starts a thread that binds it, and
returns the page's address at once. The window may ask for the page before that thread has bound
the port: on a busy machine the first load is then refused ("connection refused", Qt's
loadFinished(False)) and the window shows an error page that never gets its data, and the
fresh-clone CI saw a window wait forever for it. Between the port being picked and bound,
another program may also take it (and would then serve the page).

Two patches, one per side of that race, checked by checks.verify_http_server:
- the adapter that serves (webview.http.ThreadedAdapter) says when its socket is listening, or
  why it could not bind;
- `start_server` returns only once its server listens; a port taken meanwhile means another
  port (up to ATTEMPTS), a server that never listens an error naming why.
Both backend-independent: every backend loads the page from this server.
"""

from __future__ import annotations

import inspect
import logging
import threading
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from app.bridge.csp import BridgePatchError

log = logging.getLogger(__name__)

ATTEMPTS = 3
LISTEN_SECONDS = 10.0  # far longer than a bind takes, even on a loaded machine


class ServerNotListening(RuntimeError):
    """The page's HTTP server could not listen: the window would have nothing to show."""


class _Binding:
    """One port's outcome, set by the serving thread, awaited by start_server."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: OSError | None = None


_bindings: dict[int, _Binding] = {}
_lock = threading.Lock()


def binding(port: int) -> _Binding:
    """Either side may come first: whoever does creates the port's record."""
    with _lock:
        return _bindings.setdefault(port, _Binding())


def forget(port: int) -> None:
    with _lock:
        _bindings.pop(port, None)


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        """The page's requests are not worth a log line each."""


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a request still open never holds the app's exit


def listening_adapter() -> type:
    """The bottle adapter pywebview's thread runs: binds, says so, then serves."""
    import bottle  # type: ignore[import-untyped]

    class ListeningAdapter(bottle.ServerAdapter):  # type: ignore[misc]
        def run(self, handler: Any) -> None:
            outcome = binding(int(self.port))
            try:
                server = make_server(
                    self.host,
                    int(self.port),
                    handler,
                    server_class=_ThreadingServer,
                    handler_class=_QuietHandler,
                )
            except OSError as error:
                outcome.error = error
                outcome.done.set()
                return
            outcome.done.set()
            server.serve_forever()

    return ListeningAdapter


def verify(backend_name: str) -> None:
    """Raises BridgePatchError when pywebview's server no longer works the way install assumes:
    start_server builds its thread on the module's ThreadedAdapter and keeps the port it picked."""
    import webview.http as http

    start = inspect.unwrap(http.BottleServer.start_server)
    code = getattr(getattr(start, "__func__", start), "__code__", None)
    names = set(code.co_names) if code is not None else set()
    if not hasattr(http, "ThreadedAdapter") or not {"ThreadedAdapter", "port"} <= names:
        raise BridgePatchError(
            f"pywebview's page server for the {backend_name} backend changed: start_server no "
            "longer serves through webview.http.ThreadedAdapter on the port it keeps "
            "(app/bridge/http_server.py must be updated)"
        )


def install(listen_seconds: float = LISTEN_SECONDS) -> None:
    """Replaces pywebview's adapter and wraps its start_server. Idempotent."""
    import webview.http as http

    start = http.BottleServer.start_server
    if getattr(start, "__sidekicks_listening__", False):
        return
    original = start.__func__  # type: ignore[attr-defined]
    setattr(http, "ThreadedAdapter", listening_adapter())  # noqa: B010  (a module's class)

    def start_server(
        cls: Any,
        urls: list[str],
        http_port: int | None,
        keyfile: Any = None,
        certfile: Any = None,
    ) -> tuple[str, str | None, Any]:
        if keyfile and certfile:  # pywebview's TLS adapter serves then (the app never asks it)
            return original(cls, urls, http_port, keyfile, certfile)  # type: ignore[no-any-return]
        reasons: list[str] = []
        for _ in range(1 if http_port else ATTEMPTS):
            started = original(cls, urls, http_port)
            port = int(started[2].port)
            outcome = binding(port)
            listened = outcome.done.wait(listen_seconds)
            forget(port)
            if listened and outcome.error is None:
                return started  # type: ignore[no-any-return]
            reason = str(outcome.error) if listened else f"not listening after {listen_seconds} s"
            log.warning("the page's HTTP server could not use port %d: %s", port, reason)
            reasons.append(f"port {port}: {reason}")
        raise ServerNotListening(
            "the window's page server could not listen (" + "; ".join(reasons) + ")"
        )

    start_server.__sidekicks_listening__ = True  # type: ignore[attr-defined]
    start_server.__wrapped__ = original  # type: ignore[attr-defined]  # what verify reads
    http.BottleServer.start_server = classmethod(start_server)  # type: ignore[assignment,method-assign]
