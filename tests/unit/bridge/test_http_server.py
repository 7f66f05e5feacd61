"""The page's HTTP server listens before the window asks for the page (app/bridge/http_server.py).

pywebview's server binds its port in a thread started just before `start_server` returns the
address: on a busy machine the window's first load was refused and the window waited forever.
These tests make that thread slow on purpose (its bind waits for a timer) and use real sockets.
"""

from __future__ import annotations

import socket
import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import webview.http as http

from app.bridge import http_server
from app.bridge.csp import BridgePatchError

SLOW_BIND_SECONDS = 0.3  # how late the serving thread binds: the window would ask before


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """http_server installed for one test, pywebview's own server back afterwards."""
    monkeypatch.setattr(http, "ThreadedAdapter", http.ThreadedAdapter)
    monkeypatch.setattr(
        http.BottleServer, "start_server", http.BottleServer.__dict__["start_server"]
    )
    http_server.install(listen_seconds=5)


@pytest.fixture
def slow_bind(monkeypatch: pytest.MonkeyPatch) -> None:
    """The serving thread binds only once a timer fires, as on a loaded machine."""
    bind = http_server.make_server

    def late_make_server(*args: Any, **kwargs: Any) -> Any:
        allowed = threading.Event()
        threading.Timer(SLOW_BIND_SECONDS, allowed.set).start()
        allowed.wait()
        return bind(*args, **kwargs)

    monkeypatch.setattr(http_server, "make_server", late_make_server)


@pytest.fixture
def page(tmp_path: Path) -> Path:
    index = tmp_path / "index.html"
    index.write_text("<!doctype html><title>Sidekicks</title>", encoding="utf-8")
    return index


def held_port() -> socket.socket:
    """A port another program listens on."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


def ports(*given: int) -> Callable[[], int]:
    queue = list(given)
    return lambda: queue.pop(0) if len(queue) > 1 else queue[0]


def fetch(address: str) -> str:
    with urllib.request.urlopen(address + "index.html", timeout=5) as answer:
        return str(answer.read().decode("utf-8"))


@pytest.mark.usefixtures("installed", "slow_bind")
def test_the_page_is_served_as_soon_as_start_server_returns_even_when_its_thread_binds_late(
    page: Path,
) -> None:
    address, _, server = http.BottleServer.start_server([str(page)], None)

    with socket.create_connection(("127.0.0.1", server.port), timeout=1):
        pass  # refused when start_server returns before the thread listens
    assert "<title>Sidekicks</title>" in fetch(address)


@pytest.mark.usefixtures("installed")
def test_a_port_another_program_took_meanwhile_means_another_port(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with held_port() as holder, socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        free = spare.getsockname()[1]
        spare.close()
        taken = holder.getsockname()[1]
        monkeypatch.setattr(http, "_get_random_port", ports(taken, free))

        address, _, server = http.BottleServer.start_server([str(page)], None)

        assert server.port == free  # not the port the other program answers on
        assert "<title>Sidekicks</title>" in fetch(address)


@pytest.mark.usefixtures("installed")
def test_a_server_that_can_never_listen_is_an_error_naming_each_port_and_why(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with held_port() as holder:
        taken = holder.getsockname()[1]
        monkeypatch.setattr(http, "_get_random_port", ports(taken))

        with pytest.raises(http_server.ServerNotListening) as refused:
            http.BottleServer.start_server([str(page)], None)

    message = str(refused.value)
    assert message.count(f"port {taken}:") == http_server.ATTEMPTS
    assert "in use" in message.lower() or "address" in message.lower()


@pytest.mark.usefixtures("installed")
def test_installing_twice_wraps_start_server_once(page: Path) -> None:
    wrapped = http.BottleServer.__dict__["start_server"]
    http_server.install()
    assert http.BottleServer.__dict__["start_server"] is wrapped


def test_pywebview_as_installed_is_what_the_patch_expects() -> None:
    http_server.verify("qt")  # raises on a changed pywebview


def test_a_start_server_no_longer_using_the_adapter_stops_the_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def start_server(cls: Any, urls: list[str], http_port: int | None) -> Any:
        return ("http://127.0.0.1:1/", None, cls())

    monkeypatch.setattr(http.BottleServer, "start_server", classmethod(start_server))

    with pytest.raises(BridgePatchError, match=r"http_server\.py"):
        http_server.verify("qt")
