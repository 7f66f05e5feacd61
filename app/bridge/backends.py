"""Which pywebview backend hosts the window, and what each of our bridge patches means there.

Linux runs Qt (PyQt6 + QtWebEngine; DESIGN §5) unless $SIDEKICKS_GUI=gtk asks for WebKitGTK (a
smaller build); macOS runs cocoa (WKWebView), Windows winforms hosting edgechromium (WebView2):
pywebview picks those itself there, and $SIDEKICKS_GUI is ignored with a log line.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Literal

log = logging.getLogger(__name__)

GUI_OVERRIDE = "SIDEKICKS_GUI"
LINUX_BACKENDS = ("qt", "gtk")

LinuxBackend = Literal["qt", "gtk"]


def gui_backend() -> LinuxBackend | None:
    """The `gui` passed to `webview.start`: "qt" or "gtk" on Linux, None (pywebview's own
    choice: cocoa, winforms) elsewhere."""
    chosen = os.environ.get(GUI_OVERRIDE, "").strip().lower()
    if not sys.platform.startswith("linux"):
        if chosen:
            log.info("%s=%s ignored: it chooses a Linux backend only", GUI_OVERRIDE, chosen)
        return None
    if chosen == "gtk":
        return "gtk"
    if chosen not in ("", "qt"):
        log.warning("%s=%s is not one of %s: using qt", GUI_OVERRIDE, chosen, LINUX_BACKENDS)
    return "qt"
