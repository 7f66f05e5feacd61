"""A browser-permission request from the page is denied, and the app keeps running."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api

pytestmark = pytest.mark.e2e


def test_a_notification_permission_request_is_denied_without_crashing(window: Page) -> None:
    answer = window.evaluate("Notification.requestPermission()")
    assert answer == "denied"
    assert api(window, "AgentService", "List")  # the app is still alive and answering
