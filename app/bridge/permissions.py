"""Answers the page's browser-permission requests (notifications, camera, microphone…).

pywebview's Qt backend answers them with a bare int where PyQt6 wants an enum: the TypeError
it raises inside the Qt signal aborts the whole app, so one `Notification.requestPermission()`
(or any agent-influenced page feature asking for a permission) would kill Sidekicks. The window's
page (qt_navigation.py's, in place of pywebview's) answers with the right enum instead, and denies
every feature: the UI needs none of them (the page cannot reach a camera, a microphone, the
screen or the location). The other backends need no such fix: they answer or prompt by
themselves without crashing (backends.py says how).
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def deny_feature(page: Any, url: Any, feature: Any) -> None:
    from PyQt6.QtWebEngineCore import QWebEnginePage

    log.info("denied the page's request for %s", getattr(feature, "name", feature))
    page.setFeaturePermission(url, feature, QWebEnginePage.PermissionPolicy.PermissionDeniedByUser)
