"""Answers the page's browser-permission requests (notifications, camera, microphone…).

pywebview's Qt backend answers them with a bare int where PyQt6 wants an enum: the TypeError
it raises inside the Qt signal aborts the whole app, so one `Notification.requestPermission()`
(or any agent-influenced page feature asking for a permission) would kill Sidekicks. We answer
with the right enum instead, and deny every feature: the UI needs none of them (the page
cannot reach a camera, a microphone, the screen or the location). The other backends need no
such patch: they answer or prompt by themselves without crashing (backends.py says how).
"""

from __future__ import annotations

import logging
from typing import Any

from app.bridge.backends import gui_backend

log = logging.getLogger(__name__)


def deny_feature(page: Any, url: Any, feature: Any) -> None:
    from PyQt6.QtWebEngineCore import QWebEnginePage

    log.info("denied the page's request for %s", getattr(feature, "name", feature))
    page.setFeaturePermission(url, feature, QWebEnginePage.PermissionPolicy.PermissionDeniedByUser)


def install() -> None:
    """Replaces pywebview's handler before any window is created (Qt backend only)."""
    if gui_backend() != "qt":
        return
    from webview.platforms import qt

    qt.BrowserView.WebPage.onFeaturePermissionRequested = deny_feature  # type: ignore[method-assign]
