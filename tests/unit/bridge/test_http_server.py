"""The page's HTTP server listens before `start_server` returns its address
(app/bridge/http_server.ListeningServer, given to `webview.start(server=…)`).

pywebview's own server binds its port in a thread started just before `start_server` returns the
address: on a busy machine the window's first load was refused and the window waited forever.
These tests use real sockets and pywebview's own server class for comparison.
"""

from __future__ import annotations

import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import webview.http as http

from app.bridge import http_server
from app.bridge.http_server import ListeningServer, ServerNotListening
from tests.waiting import wait_for

SLOW_BIND_SECONDS = 0.5  # how late pywebview's serving thread binds in the comparison below


@pytest.fixture
def page(tmp_path: Path) -> Path:
    index = tmp_path / "index.html"
    index.write_text("<!doctype html><title>Sidekicks</title>", encoding="utf-8")
    return index


def fetch(address: str, path: str = "index.html") -> tuple[str, Any]:
    with urllib.request.urlopen(address + path, timeout=5) as answer:
        return str(answer.read().decode("utf-8")), answer.headers


def accepts(port: int) -> bool:
    """Whether something listens on the port right now (one attempt, no waiting)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def test_it_is_pywebviews_server_given_the_public_way() -> None:
    assert issubclass(ListeningServer, http.BottleServer)


def test_the_server_listens_when_start_server_returns(page: Path) -> None:
    address, common, server = ListeningServer.start_server([str(page)], None)

    assert accepts(server.port)  # no wait: refused if it returned before listening
    assert address == f"http://127.0.0.1:{server.port}/"
    assert common == str(page.parent)
    assert server.running and server.common_path == str(page.parent)  # what Window reads
    text, headers = fetch(address)
    assert "<title>Sidekicks</title>" in text
    theirs, _, _ = http.BottleServer.start_server([str(page)], None)
    assert wait_for(lambda: accepts(int(theirs.rsplit(":", 1)[1].strip("/"))), 10, what="theirs")
    their_text, their_headers = fetch(theirs)
    assert text == their_text  # served as pywebview's own server serves it
    assert headers.get("Cache-Control") == their_headers.get("Cache-Control")


def test_pywebviews_own_server_can_return_before_it_listens(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the subclass removes, shown on pywebview's own server: its thread binds late."""
    bind = http.make_server
    allowed = threading.Event()

    def late_make_server(*args: Any, **kwargs: Any) -> Any:
        allowed.wait(10)
        return bind(*args, **kwargs)

    monkeypatch.setattr(http, "make_server", late_make_server)
    _, _, server = http.BottleServer.start_server([str(page)], None)
    try:
        assert not accepts(server.port)  # returned, and nothing listens yet
    finally:
        allowed.set()


def test_the_server_serves_the_pages_folder_only(page: Path, tmp_path: Path) -> None:
    (tmp_path.parent / "secret.txt").write_text("not for the page", encoding="utf-8")
    address, _, _ = ListeningServer.start_server([str(page)], None)
    with pytest.raises(urllib.error.HTTPError):
        fetch(address, "../secret.txt")
    with pytest.raises(urllib.error.HTTPError):  # pywebview's /js_api/ endpoint is not served
        urllib.request.urlopen(urllib.request.Request(address + "js_api/x", data=b"{}"), timeout=5)


def test_a_port_that_cannot_be_bound_is_a_clear_error(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(http_server, "make_server", refused)
    with pytest.raises(ServerNotListening) as error:
        ListeningServer.start_server([str(page)], None)
    assert str(error.value) == (
        "the window's page server could not listen "
        "(port chosen by the system: [Errno 98] Address already in use)"
    )


def test_a_port_asked_for_and_taken_by_another_program_is_a_clear_error(page: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        with pytest.raises(ServerNotListening, match=rf"could not listen \(port {taken}: "):
            ListeningServer.start_server([str(page)], taken)
