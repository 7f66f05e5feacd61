"""The page's HTTP server: a subclass of pywebview's server that listens before it returns.

pywebview's `BottleServer.start_server` picks a free port, starts a thread that binds it, and
returns the page's address at once. The window may ask for the page before that thread has bound
the port: on a busy machine the first load is then refused ("connection refused", Qt's
loadFinished(False)) and the window shows an error page that never gets its data (the fresh-clone
CI saw a window wait forever for it). Between the port being picked and bound, another program
may also take it, and would then serve the page.

`webview.start(server=…)` takes the server class (pywebview's public way to bring one's own), so
ListeningServer binds in `start_server` itself, on a port the system chooses (port 0: nothing can
take it between the choice and the bind), and returns once the socket listens; its thread only
serves. A port that cannot be bound raises ServerNotListening with the system's reason, which
`python -m app` says in a sentence (exit 1). The server serves the UI's files, without caching, as
pywebview's does; it has no `/js_api/` endpoint (no backend the app runs uses one: every page call
goes through the backend's own channel).
"""

from __future__ import annotations

import logging
import os
import threading
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from webview.http import BottleServer
from webview.util import abspath, is_local_url

log = logging.getLogger(__name__)

HOST = "127.0.0.1"


class ServerNotListening(RuntimeError):
    """The page's HTTP server could not listen: the window would have nothing to show."""


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        """The page's requests are not worth a log line each."""


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a request still open never holds the app's exit


def common_folder(urls: list[str]) -> str | None:
    """The folder the local URLs share, as pywebview's server computes it (the window's
    `real_url` is resolved against it)."""
    local = [url.split("#")[0] for url in urls if is_local_url(url)]
    if not local:
        return None
    common = os.path.commonpath(local)
    return common if os.path.isdir(abspath(common)) else os.path.dirname(common)


def files_app(root: str | None) -> Any:
    """The WSGI app serving `root`'s files, never cached (as pywebview's own)."""
    import bottle  # type: ignore[import-untyped]

    app = bottle.Bottle()

    @app.route("/")  # type: ignore[untyped-decorator]
    @app.route("/<file:path>")  # type: ignore[untyped-decorator]
    def asset(file: str = "") -> Any:
        if not root:
            return ""
        bottle.response.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        bottle.response.set_header("Pragma", "no-cache")
        bottle.response.set_header("Expires", 0)
        return bottle.static_file(file, root=root)

    return app


class ListeningServer(BottleServer):
    """pywebview's server, bound and listening when `start_server` returns its address."""

    # Set by pywebview's start_server without a declaration (what its Window and the app read).
    port: int
    thread: threading.Thread
    common_path: str | None

    @classmethod
    def start_server(
        cls,
        urls: list[str],
        http_port: int | None,
        keyfile: Any = None,
        certfile: Any = None,
    ) -> tuple[str, str | None, BottleServer]:
        if keyfile or certfile or any(callable(url) for url in urls):
            # TLS or a WSGI app of one's own: pywebview's server (the app asks for neither).
            return super().start_server(urls, http_port, keyfile, certfile)
        common = common_folder(urls)
        root = abspath(common) if common is not None else None
        try:
            httpd = make_server(
                HOST,
                http_port or 0,
                files_app(root),
                server_class=_ThreadingServer,
                handler_class=_QuietHandler,
            )
        except OSError as error:
            where = f"port {http_port}" if http_port else "port chosen by the system"
            log.warning("the page's HTTP server could not listen on %s: %s", where, error)
            raise ServerNotListening(
                f"the window's page server could not listen ({where}: {error})"
            ) from error
        server = cls()
        server.root_path = root  # type: ignore[assignment]  # pywebview's `str`, None there too
        server.port = int(httpd.server_address[1])
        server.thread = threading.Thread(
            target=httpd.serve_forever, name="sidekicks-page-server", daemon=True
        )
        server.thread.start()
        server.running = True
        address = f"http://{HOST}:{server.port}/"
        server.address = address  # type: ignore[assignment]  # declared None by pywebview
        cls.common_path = common  # what pywebview's Window reads to resolve its URL
        return address, common, server
