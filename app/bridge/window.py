"""The desktop window: pywebview hosting ui/dist, the services as its js_api, events pumped in.

The window opens while the backend starts on its own thread (starting.py): this module imports
none of it (tests/unit/test_start_up_imports.py), and the page gets its api once the backend is
there (late_api.py).

Linux uses the Qt backend (PyQt6; DESIGN §5; WebKitGTK with $SIDEKICKS_GUI=gtk), macOS and
Windows their native ones (cocoa, edgechromium): backends.py, checked by checks.py at each start.
Closing the window stops the answers and every agent and closes the history (Sidekicks.close,
after webview.start returns, on the main thread: the GUI thread is never blocked by it).
`--self-test` opens it, proves the bridge and closes it (self_test.py).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.bridge import (
    allowlist,
    checks,
    cocoa_navigation,
    csp,
    dropped_paths,
    edge_navigation,
    engine_memory,
    gtk_navigation,
    qt_navigation,
)
from app.bridge.backends import Backend, gui_backend, running_backend
from app.bridge.geometry import MIN_SIZE, Geometry, load_geometry, save_geometry
from app.bridge.http_server import ListeningServer
from app.bridge.late_api import LateApi
from app.bridge.navigation import AppPage
from app.bridge.pump import EventPump
from app.bridge.self_test import SelfTest
from app.bridge.starting import BackgroundStart
from app.bridge.window_attention import WindowAttention
from app.paths import resource_path
from app.version import __version__

if TYPE_CHECKING:
    from app.sidekicks import Sidekicks

log = logging.getLogger(__name__)

TITLE = "Sidekicks"
YAML_FILTER = ("YAML files (*.yaml;*.yml)", "All files (*.*)")
CHOSEN_FILES_HOOK = "SIDEKICKS_TEST_CHOSEN_FILES"
SAVE_PATH_HOOK = "SIDEKICKS_TEST_SAVE_PATH"

MISSING_UI = """<!doctype html><meta charset="utf-8"><title>Sidekicks</title>
<body style="font: 15px system-ui; padding: 3em; max-width: 40em">
<h1>The interface is not built</h1>
<p>Run <code>./scripts/run</code> (it builds <code>ui/dist</code>), or
<code>cd ui && npm ci && npm run build</code>.</p></body>"""


def ui_index() -> Path:
    return resource_path("ui", "dist", "index.html")


def choose_file(window: Any) -> str | None:
    import webview

    result = window.create_file_dialog(
        webview.FileDialog.OPEN, allow_multiple=False, file_types=YAML_FILTER
    )
    if not result:
        return None
    return str(result[0] if isinstance(result, list | tuple) else result)


def choose_files(window: Any) -> list[str]:
    """Files to attach to a message (any kind, several at once); [] when cancelled. With
    $SIDEKICKS_TEST_CHOSEN_FILES (tests: a native dialog cannot be driven offscreen), the paths
    listed in that JSON file instead."""
    hook = os.environ.get(CHOSEN_FILES_HOOK)
    if hook:
        return [str(path) for path in json.loads(Path(hook).read_text(encoding="utf-8"))]
    import webview

    result = window.create_file_dialog(webview.FileDialog.OPEN, allow_multiple=True)
    if not result:
        return []
    return [str(path) for path in (result if isinstance(result, list | tuple) else [result])]


def choose_save_path(window: Any, name: str) -> str:
    """Where to save an export, `name` offered; "" when cancelled. With
    $SIDEKICKS_TEST_SAVE_PATH (tests: a native dialog cannot be driven offscreen), that file, or
    `name` in that folder, instead."""
    hook = os.environ.get(SAVE_PATH_HOOK)
    if hook:
        return str(Path(hook) / name) if Path(hook).is_dir() else hook
    import webview

    result = window.create_file_dialog(webview.FileDialog.SAVE, save_filename=name)
    if not result:
        return ""
    return str(result[0] if isinstance(result, list | tuple) else result)


def choose_folder(window: Any) -> str:
    """A folder for an added agent (its `cwd`); "" when cancelled. Tests answer it with
    $SIDEKICKS_TEST_FOLDER_PATH instead (GalleryService.ChooseFolder reads it first)."""
    import webview

    result = window.create_file_dialog(webview.FileDialog.FOLDER)
    if not result:
        return ""
    return str(result[0] if isinstance(result, list | tuple) else result)


def run_window(starting: BackgroundStart, self_test: bool = False) -> int:
    """Runs the window until it closes, connected to the backend `starting` gives once it has
    started; the exit code (a self-test's verdict, else 0). The caller closes the backend."""
    import webview

    backend = running_backend()
    if backend.renderer == "qtwebengine":
        engine_memory.expose_collector()  # read when QtWebEngine makes its first page
    # Each patch's target, for this backend: a changed pywebview stops here (BridgePatchError),
    # as does a backend that would not be this one (checks.load imports it before webview.start).
    checks.verify(backend)
    checks.load(backend)
    csp.install()
    pump = EventPump()  # sends with the window's run_js (given at start)
    late_api = LateApi()
    allowlist.install(backend.bridge_module, late_api)  # issue #13: nothing until the api is there
    geometry = load_geometry()
    index = ui_index()
    window = webview.create_window(
        TITLE,
        url=str(index) if index.is_file() else None,
        html=None if index.is_file() else MISSING_UI,
        js_api=late_api,
        width=geometry.width,
        height=geometry.height,
        x=geometry.x,
        y=geometry.y,
        min_size=MIN_SIZE,
        text_select=True,
    )
    assert window is not None
    csp.without_eval(window)

    # The window shows the app's page only (pywebview sets real_url as webview.start serves it).
    def app_page() -> AppPage:
        return AppPage(window.real_url, own_html=window.html is not None)

    qt_navigation.install(app_page)
    edge_navigation.install(app_page)
    gtk_navigation.install(app_page)
    cocoa_navigation.install(app_page)
    attention = WindowAttention(window)  # the title's count; a clicked notification's front
    live = Geometry(geometry.width, geometry.height, geometry.x, geometry.y)

    def on_resized(width: int, height: int) -> None:
        live.width, live.height = width, height

    def on_moved(x: int, y: int) -> None:
        live.x, live.y = x, y

    window.events.loaded += pump.page_loaded
    window.events.closing += pump.stop
    window.events.resized += on_resized
    window.events.moved += on_moved
    dropped_paths.install()
    unsubscribes: list[Callable[[], None]] = []

    def connect(sk: Sidekicks) -> None:
        # On the backend's start thread, once it has started (before the page learns a name).
        unsubscribes.append(sk.events.subscribe(pump.put))
        unsubscribes.append(sk.events.subscribe(attention.on_event))
        late_api.give(_connected_api(sk, window, pump, backend))

    def not_started() -> None:
        late_api.give(None)  # the injection ends (no functions); the window closes
        close_window()

    def close_when_shown() -> None:
        # A window not shown yet cannot be destroyed, and pywebview's destroy() gives up (raises)
        # after 20 s: on a loaded machine, a SIGTERM sent as the window opens must still close it.
        window.events.shown.wait()
        window.destroy()

    def close_window(*_: object) -> None:
        # SIGTERM/SIGINT (a session ending, a test): close as if the user did, so the agents
        # are stopped. destroy() waits on the GUI thread: call it from another one.
        threading.Thread(target=close_when_shown, daemon=True).start()

    # Installed before the window is announced (the log line below) and before webview.start
    # makes the page reachable: a supervisor may send SIGTERM as soon as either happens.
    signal.signal(signal.SIGTERM, close_window)
    signal.signal(signal.SIGINT, close_window)
    pump.start(window.run_js)
    attention.start()
    tester = SelfTest(window, pump.put, backend) if self_test else None
    if tester is not None:
        tester.start()
    starting.when_started(connect, not_started)
    log.info("Sidekicks %s: opening the window on %s", __version__, index)
    # The icon is drawn by scripts/make_icons.py (packaging): a source run may not have it, and
    # the gtk backend fails to show the window at all for a missing icon file.
    icon = resource_path("build", "icons", "sidekicks.png")
    try:
        webview.start(
            gui=gui_backend(),
            http_server=True,
            server=ListeningServer,  # listening before the window asks for the page
            private_mode=True,
            icon=str(icon) if icon.is_file() else None,
        )
    finally:
        pump.stop()
        late_api.give(None)  # a window closed before the backend started: no injection waits
        starting.wait()  # its start ends (closed by the caller); connect() ran or never will
        for unsubscribe in unsubscribes:
            unsubscribe()
        attention.stop()
        pump.join()
        save_geometry(live)
        if tester is not None:
            tester.finished()
    return tester.exit_code if tester is not None else 0


def _connected_api(sk: Sidekicks, window: Any, pump: EventPump, backend: Backend) -> object:
    """The page api of `sk` (its services' exposed methods, answering JSON text after the events
    emitted before), allowed by the gate, with the window's file choosers given to it."""
    from app.bridge import results  # imports the services' models: after the backend did

    page_api = results.page_api(sk.api, settle=pump.settle)
    allowlist.install(backend.bridge_module, page_api)  # issue #13: those methods and no other
    sk.api.ConfigService._set_file_chooser(lambda: choose_file(window))
    sk.api.AttachmentService._set_files_chooser(lambda: choose_files(window))
    sk.api.ExportService._set_save_chooser(lambda name: choose_save_path(window, name))
    sk.api.GalleryService._set_folder_chooser(lambda: choose_folder(window))
    sk.api.AttachmentService._set_dropped_paths(dropped_paths.take)
    return page_api
