"""The message views' warm-up (ui/src/conversation/parts/warmUp.ts, issue 29): it runs in idle
moments after the start, says when it is done (`data-warmed-up` on the page's root, what
bench/ui_render.py waits for), and leaves nothing behind: the sample messages it mounts, in an
element never in the page, are gone once a step is over."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.window import WARMED_UP, api, running_app

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"


def test_the_warm_up_finishes_and_leaves_nothing_in_the_page(tmp_path: Path) -> None:
    config = tmp_path / "warm.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.wait_for_function(WARMED_UP, timeout=15_000, polling=100)
        leftovers = page.evaluate(
            """() => ({
                samples: document.querySelectorAll('[data-id^="warm-up-"]').length,
                messages: document.querySelectorAll('[data-testid=message]').length,
            })"""
        )
        assert leftovers == {"samples": 0, "messages": 0}

        # The first conversation after it shows its messages as usual.
        direct = api(page, "ChannelService", "Direct", "demo")
        api(page, "ChannelService", "Send", direct["id"], "/echo **warm** `code`")
        page.click("[data-testid=nav-agents]")
        page.locator("[data-testid=direct-item]", has_text="demo").click()
        page.wait_for_selector(CONVERSATION, timeout=30_000)
        answer = page.locator("[data-role=agent][data-done=true] .markdown strong")
        answer.wait_for(timeout=30_000)
        assert answer.inner_text() == "warm"
        assert page.evaluate("document.querySelectorAll('[data-id^=\"warm-up-\"]').length") == 0
