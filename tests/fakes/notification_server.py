"""A private D-Bus session with a fake desktop notification server (org.freedesktop.Notifications),
for tests of real notifications on Linux.

`private_session_bus()` starts `dbus-daemon --session` and yields its address (point the app at
it with DBUS_SESSION_BUS_ADDRESS); `FakeNotificationServer` owns the well-known name on it, records
each Notify call and answers with a new id; `click(id)` emits ActionInvoked(id, "default") as a
notification daemon does when the person clicks a notification's body.

Linux only (dbus-fast is installed there alone): import it under `if ON_LINUX:` and mark the
tests with NEEDS_DBUS (tests/fakes/needs_dbus.py).
"""

from __future__ import annotations

import asyncio
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Self

from dbus_fast import Variant
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusSignature, DBusStr, DBusUInt32
from dbus_fast.service import ServiceInterface, method, signal

from tests.fakes.needs_dbus import DBUS_DAEMON
from tests.waiting import wait_for

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
StrList = Annotated[list[str], DBusSignature("as")]
Hints = Annotated[dict[str, Variant], DBusSignature("a{sv}")]
Timeout = Annotated[int, DBusSignature("i")]
ServerInfo = Annotated[list[str], DBusSignature("ssss")]
ActionArgs = Annotated[list[Any], DBusSignature("us")]
ClosedArgs = Annotated[list[int], DBusSignature("uu")]


@dataclass(frozen=True)
class Shown:
    id: int
    app_name: str
    title: str
    body: str
    actions: list[str]


class _Notifications(ServiceInterface):
    def __init__(self) -> None:
        super().__init__(NAME)
        self.shown: list[Shown] = []
        self._lock = threading.Lock()

    @method()
    def Notify(
        self,
        app_name: DBusStr,
        replaces_id: DBusUInt32,
        app_icon: DBusStr,
        summary: DBusStr,
        body: DBusStr,
        actions: StrList,
        hints: Hints,
        expire_timeout: Timeout,
    ) -> DBusUInt32:
        with self._lock:
            shown = Shown(len(self.shown) + 1, app_name, summary, body, list(actions))
            self.shown.append(shown)
        return shown.id

    @method()
    def GetCapabilities(self) -> StrList:
        return ["actions", "body"]

    @method()
    def GetServerInformation(self) -> ServerInfo:
        return ["Sidekicks test notifications", "sidekicks", "1.0", "1.2"]

    @method()
    def CloseNotification(self, id: DBusUInt32):  # type: ignore[no-untyped-def]  # no reply

        pass

    @signal()
    def ActionInvoked(self, id: int, action_key: str) -> ActionArgs:
        return [id, action_key]

    @signal()
    def NotificationClosed(self, id: int, reason: int) -> ClosedArgs:
        return [id, reason]


class _OnItsOwnLoop:
    """A D-Bus connection to `address` run from its own thread and loop while in a `with`;
    `_connect` makes it (and sets `_bus`)."""

    def __init__(self, address: str) -> None:
        self._address = address
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._bus: MessageBus | None = None

    def __enter__(self) -> Self:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._connect(), self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bus is not None:
            self._loop.call_soon_threadsafe(self._bus.disconnect)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    async def _connect(self) -> None:
        raise NotImplementedError


class FakeNotificationServer(_OnItsOwnLoop):
    """Serves org.freedesktop.Notifications on `address` from its own thread and loop."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self._interface = _Notifications()

    async def _connect(self) -> None:
        self._bus = await MessageBus(bus_address=self._address).connect()
        self._bus.export(PATH, self._interface)
        await self._bus.request_name(NAME)

    @property
    def shown(self) -> list[Shown]:
        return list(self._interface.shown)

    def wait_for_shown(self, count: int = 1, timeout: float = 10) -> list[Shown]:
        return wait_for(
            lambda: self.shown if len(self.shown) >= count else None,
            timeout,
            what=f"{count} notification(s)",
        )

    def click(self, id: int) -> None:
        """What a notification daemon does when the person clicks the notification's body."""
        self._loop.call_soon_threadsafe(self._interface.ActionInvoked, id, "default")


@contextmanager
def private_session_bus() -> Iterator[str]:
    """A D-Bus session daemon of the test's own; its address."""
    if DBUS_DAEMON is None:
        raise RuntimeError("dbus-daemon is not installed (Debian/Ubuntu: apt-get install dbus)")
    proc = subprocess.Popen(
        [DBUS_DAEMON, "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().strip()
        if not address:
            raise RuntimeError("dbus-daemon printed no address")
        yield address
    finally:
        proc.terminate()
        proc.wait(10)


class SignalWatcher(_OnItsOwnLoop):
    """Records the signals of one interface sent on the bus (e.g. the launcher's badge)."""

    def __init__(self, address: str, interface: str) -> None:
        super().__init__(address)
        self._interface = interface
        self.received: list[tuple[str, list[Any]]] = []

    async def _connect(self) -> None:
        from dbus_fast import Message, MessageType

        self._bus = await MessageBus(bus_address=self._address).connect()

        def handler(message: Message) -> None:
            if message.message_type == MessageType.SIGNAL and message.interface == self._interface:
                self.received.append((message.member, list(message.body)))

        self._bus.add_message_handler(handler)
        await self._bus.call(
            Message(
                destination="org.freedesktop.DBus",
                path="/org/freedesktop/DBus",
                interface="org.freedesktop.DBus",
                member="AddMatch",
                signature="s",
                body=[f"type='signal',interface='{self._interface}'"],
            )
        )
