"""Downloads: only https or this machine, redirects checked the same way, sizes capped, the
sha256 computed as the bytes arrive."""

from __future__ import annotations

import hashlib
import io
import re

import pytest

from app.agents.gallery.download import DownloadError, fetch, fetch_bytes
from tests.gallery_server import GalleryServer


def test_the_body_and_its_sha256() -> None:
    with GalleryServer() as server:
        server.serve("/a", b"abc" * 1000)
        out = io.BytesIO()
        seen: list[tuple[int, int]] = []
        got = fetch(
            server.url("/a"),
            out,
            max_bytes=10_000,
            timeout=5,
            progress=lambda d, t: seen.append((d, t)),
        )
    assert out.getvalue() == b"abc" * 1000
    assert (got.size, got.sha256) == (3000, hashlib.sha256(b"abc" * 1000).hexdigest())
    assert seen[-1] == (3000, 3000)


def test_a_redirect_to_this_machine_is_followed_and_one_elsewhere_refused() -> None:
    with GalleryServer() as server:
        server.serve("/real", b"ok")
        server.redirects["/here"] = server.url("/real")
        server.redirects["/away"] = "http://example.com/agent.tar.gz"  # never contacted
        assert fetch_bytes(server.url("/here"), max_bytes=100, timeout=5) == b"ok"
        away = re.escape("redirected to http://example.com/agent.tar.gz, which is not https")
        with pytest.raises(DownloadError, match=away):
            fetch_bytes(server.url("/away"), max_bytes=100, timeout=5)
        assert server.requests == ["/here", "/real", "/away"]


def test_sizes_are_capped_and_plain_http_elsewhere_refused() -> None:
    with GalleryServer() as server:
        server.serve("/big", b"x" * 5000)
        with pytest.raises(DownloadError, match="larger than"):
            fetch_bytes(server.url("/big"), max_bytes=4000, timeout=5)
    with pytest.raises(DownloadError, match="is not an https address"):
        fetch_bytes("http://example.com/registry.json", max_bytes=100, timeout=5)
    with pytest.raises(DownloadError, match="is not an https address"):
        fetch_bytes("file:///etc/passwd", max_bytes=100, timeout=5)
