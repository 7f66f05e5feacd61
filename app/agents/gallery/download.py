"""Downloading a file over HTTP(S) on a worker thread: its sha256 computed as it arrives, its
size capped, progress reported, Cancel honoured between chunks. Used for the registry file and
for agent archives. Redirects are followed only to addresses an archive may come from
(registry_file.allowed_download): https, or http on this machine."""

from __future__ import annotations

import contextlib
import hashlib
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.client import HTTPMessage
from pathlib import Path
from typing import IO

from app.agents.gallery.registry_file import allowed_download
from app.i18n import _
from app.version import __version__

CHUNK = 64 * 1024
PROGRESS_EVERY = 0.1  # seconds between two progress reports
USER_AGENT = f"Sidekicks/{__version__}"

Progress = Callable[[int, int], None]  # bytes done, total (0 = unknown)


class DownloadError(Exception):
    """The download failed; the message is a sentence for the person."""


class Cancelled(Exception):
    pass


@dataclass(frozen=True)
class Downloaded:
    size: int
    sha256: str


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if not allowed_download(newurl):
            raise DownloadError(
                _("the download was redirected to {url}, which is not https").format(url=newurl)
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_opener = urllib.request.build_opener(_CheckedRedirects)


def fetch(
    url: str,
    out: IO[bytes],
    *,
    max_bytes: int,
    timeout: float,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> Downloaded:
    """Writes the body at `url` into `out` (blocking: run it on a worker thread)."""
    if not allowed_download(url):
        raise DownloadError(_("{url} is not an https address").format(url=url))
    digest = hashlib.sha256()
    done = 0
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with _opener.open(request, timeout=timeout) as response, _interrupted_on(cancel, response):
            length = response.headers.get("Content-Length", "")
            total = int(length) if length.isdigit() else 0
            if total > max_bytes:
                raise _too_large(max_bytes)
            last = 0.0
            while True:
                if cancel is not None and cancel.is_set():
                    raise Cancelled
                chunk = response.read1(CHUNK)  # what has come, not a full chunk
                if not chunk:
                    break
                done += len(chunk)
                if done > max_bytes:
                    raise _too_large(max_bytes)
                digest.update(chunk)
                out.write(chunk)
                now = time.monotonic()
                if progress is not None and now - last >= PROGRESS_EVERY:
                    last = now
                    progress(done, total)
            if cancel is not None and cancel.is_set():
                raise Cancelled  # the Cancel shut the connection: its end is not the body's
            if total and done != total:
                raise DownloadError(
                    _("the download ended after {done} of {total} bytes").format(
                        done=done, total=total
                    )
                )
    except Cancelled:
        raise
    except urllib.error.HTTPError as err:
        raise DownloadError(
            _("{url} answered {status} {reason}").format(
                url=url, status=err.code, reason=err.reason
            )
        ) from None
    except urllib.error.URLError as err:
        raise DownloadError(
            _("{url} could not be reached: {reason}").format(url=url, reason=err.reason)
        ) from None
    except (TimeoutError, ConnectionError, OSError) as err:
        if cancel is not None and cancel.is_set():
            raise Cancelled from None  # the read was interrupted by the Cancel itself
        raise DownloadError(
            _("the download from {url} failed: {error}").format(url=url, error=err)
        ) from None
    if progress is not None:
        progress(done, total or done)
    return Downloaded(done, digest.hexdigest())


@contextlib.contextmanager
def _interrupted_on(cancel: threading.Event | None, response: object) -> Iterator[None]:
    """While the body is read, a Cancel shuts the connection's socket down: a read blocked on a
    server that sends nothing returns at once, instead of after the whole read timeout. urllib
    offers no public handle on the socket, so it is reached through the response's reader
    (`fp.raw._sock`, stable in CPython); without it the Cancel waits for the next chunk."""
    if cancel is None:
        yield
        return
    raw = getattr(getattr(response, "fp", None), "raw", None)
    sock = getattr(raw, "_sock", None)
    finished = threading.Event()

    def interrupt() -> None:
        while not finished.is_set():
            if cancel.wait(0.05):
                if isinstance(sock, socket.socket):
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
                return

    watcher = threading.Thread(target=interrupt, name="download-cancel", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        finished.set()
        watcher.join()


def fetch_bytes(url: str, *, max_bytes: int, timeout: float) -> bytes:
    """The body at `url` in memory (a registry file)."""
    import io

    buffer = io.BytesIO()
    fetch(url, buffer, max_bytes=max_bytes, timeout=timeout)
    return buffer.getvalue()


def fetch_file(
    url: str,
    path: Path,
    *,
    max_bytes: int,
    timeout: float,
    progress: Progress,
    cancel: threading.Event,
) -> Downloaded:
    with path.open("xb") as out:
        return fetch(
            url, out, max_bytes=max_bytes, timeout=timeout, progress=progress, cancel=cancel
        )


def _too_large(max_bytes: int) -> DownloadError:
    return DownloadError(_("the download is larger than {size} MiB").format(size=max_bytes >> 20))
