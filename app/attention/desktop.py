"""Native notifications through desktop-notifier (Linux: org.freedesktop.Notifications over D-Bus
with dbus-fast; macOS: UNUserNotificationCenter in a signed bundle; Windows: WinRT toasts), and
the launcher/dock badge.

Everything runs on this module's own thread and asyncio loop: the core loop only hands notices
over (never waits), and a missing D-Bus session or notification server is logged once, then
every later failure quietly; the app carries on either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from app.attention.badge import LauncherBadge
from app.attention.notice import Coalescer, Notice
from app.paths import resource_path

log = logging.getLogger(__name__)

APP_NAME = "Sidekicks"
LIBRARY_LOGGER = "desktop_notifier.backends.base"  # where it logs a failed send
SEND_TIMEOUT = 10.0  # a notification server that never answers does not pile up sends

Clicked = Callable[[Notice], None]


class DesktopNotifications:
    """A Notifier: `notify` and `badge` may be called from any thread and return at once;
    `on_click` is called on this notifier's thread when the person clicks a notification."""

    def __init__(self, on_click: Clicked) -> None:
        self._on_click = on_click
        self._coalescer = Coalescer()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._notifier: Any = None  # desktop_notifier.DesktopNotifier, made on the thread
        self._flush: asyncio.TimerHandle | None = None
        self.failures = 0  # notices not shown (said once in the log)
        # Notices the desktop shows and can report a click on: desktop-notifier learns the
        # server's id for a notice only once Notify has answered, and drops a click on an id
        # it does not know yet.
        self.shown = 0
        self._badge_total = 0
        self._badge_sent: int | None = None
        self._launcher = LauncherBadge()
        self._library_failures = _LibraryFailures()

    # ---- any thread --------------------------------------------------------------------------

    def notify(self, notice: Notice) -> None:
        self._soon(lambda: self._offer(notice))

    def badge(self, total: int) -> None:
        self._badge_total = total
        if total == 0 and self._loop is None:
            # Nothing shown yet, so nothing to hide: an idle window starts neither the thread
            # nor a D-Bus connection (dbus-fast) for it (issue 29, memory).
            return
        self._soon(self._send_badge)

    def close(self) -> None:
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        logging.getLogger(LIBRARY_LOGGER).removeFilter(self._library_failures)
        if loop is None or thread is None:
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        if not thread.is_alive():
            loop.close()

    # ---- the notifier's thread ---------------------------------------------------------------

    def _soon(self, fn: Callable[[], object]) -> None:
        with self._lock:
            if self._loop is None:  # started at the first notice: most runs never need it
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="sidekicks-notifier", daemon=True
                )
                self._thread.start()
            loop = self._loop
        with contextlib.suppress(RuntimeError):  # closed meanwhile: the app is closing
            loop.call_soon_threadsafe(fn)

    def _offer(self, notice: Notice) -> None:
        now = time.monotonic()
        ready = self._coalescer.offer(notice, now)
        if ready is not None:
            self._start(self._send(ready))
        self._plan_flush()

    def _plan_flush(self) -> None:
        due = self._coalescer.next_due()
        if due is None or self._flush is not None:
            return
        loop = asyncio.get_running_loop()
        self._flush = loop.call_later(max(0.0, due - time.monotonic()), self._flush_due)

    def _flush_due(self) -> None:
        self._flush = None
        for notice in self._coalescer.due(time.monotonic()):
            self._start(self._send(notice))
        self._plan_flush()

    def _start(self, coro: Any) -> None:
        asyncio.get_running_loop().create_task(coro)

    async def _send(self, notice: Notice) -> None:
        sent: list[bool] = []
        try:
            notifier = self._desktop_notifier()
            await asyncio.wait_for(
                notifier.send(
                    title=notice.title,
                    message=notice.body,
                    on_dispatched=lambda: sent.append(True),
                    on_clicked=lambda: self._clicked(notice),
                ),
                SEND_TIMEOUT,
            )
        except Exception as err:
            self._failure(err)
            return
        if not sent:  # desktop-notifier logs its failures itself (caught by _LibraryFailures)
            self._failure(self._library_failures.take() or RuntimeError("not sent"))
            return
        self.shown += 1

    async def _shutdown(self) -> None:
        """Ends the sends in progress and the D-Bus connections (the loop stops next)."""
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._launcher.close()
        bus = getattr(getattr(self._notifier, "_backend", None), "bus", None)
        if bus is not None:
            bus.disconnect()

    def _clicked(self, notice: Notice) -> None:
        try:
            self._on_click(notice)
        except Exception:
            log.exception("a notification's click was not handled")

    def _desktop_notifier(self) -> Any:
        if self._notifier is None:
            from desktop_notifier import DesktopNotifier, Icon

            logging.getLogger(LIBRARY_LOGGER).addFilter(self._library_failures)
            icon = resource_path("build", "icons", "sidekicks.png")
            self._notifier = DesktopNotifier(
                app_name=APP_NAME, app_icon=Icon(path=icon) if icon.is_file() else None
            )
        return self._notifier

    def _failure(self, err: BaseException) -> None:
        self.failures += 1
        if self.failures == 1:
            log.warning("notifications cannot be shown (%s); the app goes on without them", err)
        else:
            log.debug("a notification was not shown", exc_info=err)

    def _send_badge(self) -> None:
        total = self._badge_total
        if total == self._badge_sent:
            return
        self._badge_sent = total
        self._start(self._launcher.show(total))


class _LibraryFailures(logging.Filter):
    """desktop-notifier logs each failed send with its traceback (a missing D-Bus session would
    fill the log): its failures are taken here and said once, by the notifier."""

    def __init__(self) -> None:
        super().__init__()
        self._last: BaseException | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and record.exc_info:
            self._last = record.exc_info[1]
            return False
        return True

    def take(self) -> BaseException | None:
        last, self._last = self._last, None
        return last
