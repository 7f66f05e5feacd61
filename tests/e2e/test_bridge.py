"""The page calls the services through pywebview and receives events live."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from playwright.sync_api import Error, Page

from app.api import service_classes
from tests.e2e.window import animations_of_a_spinning_probe, api, record_events, recorded
from tests.waiting import wait_for

pytestmark = pytest.mark.e2e


def exposed_methods(service: type) -> list[str]:
    return sorted(
        name
        for name, fn in inspect.getmembers(service, inspect.isfunction)
        if getattr(fn, "__exposed__", False)
    )


def test_the_page_reaches_the_services_and_nothing_else(reused_window: Page) -> None:
    reachable = reused_window.evaluate(
        """() => Object.fromEntries(Object.entries(window.pywebview.api)
              .map(([k, v]) => [k, Object.keys(v).sort()]))"""
    )
    assert reachable == {s.__name__: exposed_methods(s) for s in service_classes()}
    assert {"AgentService", "ChannelService", "ConfigService", "SearchService"} <= set(reachable)


def test_a_window_asked_for_reduced_motion_runs_no_animation(reused_window: Page) -> None:
    """What a person who asks for reduced motion gets (app.css), and what the tests' windows
    ask for (tests/e2e/window.py; test_ui_frames.py checks the same probe spins without it)."""
    assert reused_window.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert animations_of_a_spinning_probe(reused_window) == 0


def test_each_service_answers_the_page_in_camel_case(
    module_window: tuple[Page, Path], reused_window: Page
) -> None:
    window = reused_window
    current = api(window, "ConfigService", "Current")
    assert current["path"] == str(module_window[1].with_name("e2e.yaml"))
    assert "historyProblem" in current
    assert [a["name"] for a in api(window, "AgentService", "List")] == ["demo", "alpha", "crashy"]
    room = api(window, "ChannelService", "Create", "e2e", "from the page")
    listed = api(window, "ChannelService", "List")  # with the module's other tests' channels
    assert [c for c in listed if c["id"] == room["id"]] == [room]
    assert api(window, "ChannelService", "Conversation", room["id"])["channel"] == room


def test_an_error_rejects_the_promise_with_a_readable_message(reused_window: Page) -> None:
    # Refused calls change nothing (the window is shared: tests/e2e/conftest.py).
    with pytest.raises(Error, match="there is no agent named `ghost`"):
        api(reused_window, "AgentService", "Start", "ghost")
    with pytest.raises(Error, match="a channel needs a name"):
        api(reused_window, "ChannelService", "Create", "", "")


def test_arguments_from_the_page_are_checked_and_left_out_ones_take_their_default(
    reused_window: Page,
) -> None:
    with pytest.raises(Error, match="`name` must be text"):
        api(reused_window, "AgentService", "Start", 42)
    with pytest.raises(Error, match="`id` is missing"):
        api(reused_window, "ChannelService", "Delete")
    room = reused_window.evaluate(
        "() => window.pywebview.api.ChannelService.Create('no description')"
    )
    assert (room["name"], room["description"]) == ("no description", "")
    # ui/bindings pass a left-out argument on as `undefined`, which reaches Python as null.
    room = reused_window.evaluate(
        "() => window.pywebview.api.ChannelService.Create('undefined', undefined)"
    )
    assert (room["name"], room["description"]) == ("undefined", "")


def test_agent_state_events_arrive_live_and_in_order(reused_window: Page) -> None:
    record_events(reused_window)
    api(reused_window, "AgentService", "Start", "crashy")  # ready, then crashes by itself
    reused_window.wait_for_selector("[data-agent=crashy][data-state=error]", timeout=20_000)
    states = [p["state"] for p in recorded(reused_window, "agent:state") if p["agent"] == "crashy"]
    assert states == ["starting", "ready", "error"]


def test_an_answer_reaches_the_page_after_the_events_its_call_emitted(
    reused_window: Page,
) -> None:
    """Answers went out on threads of their own and overtook the event pump: half of 20
    Create calls had their channels:changed after the answer (pump.py's settle)."""
    heard_before_answer = reused_window.evaluate(
        """async () => {
            const heard = [];
            const dispatch = window.__sidekicks.dispatch;
            window.__sidekicks.dispatch = (batch) => {
                for (const [name] of batch) heard.push(name);
                dispatch(batch);
            };
            const counts = [];
            try {
                for (let i = 0; i < 20; i++) {
                    heard.length = 0;
                    await window.pywebview.api.ChannelService.Create(`ordered ${i}`, '');
                    counts.push(heard.filter((name) => name === 'channels:changed').length);
                }
            } finally {
                window.__sidekicks.dispatch = dispatch;
            }
            return counts;
        }"""
    )
    assert heard_before_answer == [1] * 20


def test_message_deltas_stream_into_the_page(reused_window: Page) -> None:
    record_events(reused_window)
    direct = api(reused_window, "ChannelService", "Direct", "demo")
    api(reused_window, "ChannelService", "Send", direct["id"], "/bench 300")

    def finished() -> bool:
        return any(
            p["message"]["role"] == "agent" and p["message"]["done"]
            for p in recorded(reused_window, "message:updated")
        )

    wait_for(finished, timeout=30, what="the demo's answer")
    text = "".join(p["text"] or "" for p in recorded(reused_window, "message:delta"))
    assert text == "".join(f"chunk {i} " for i in range(1, 301))


def test_the_page_runs_under_its_csp_without_violations(reused_window: Page) -> None:
    window = reused_window
    window.add_init_script(
        """window.__csp = [];
        document.addEventListener('securitypolicyviolation',
            (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""
    )
    window.reload()
    window.wait_for_selector("[data-ready=true]", timeout=30_000)
    api(window, "AgentService", "List")
    assert window.evaluate("window.__csp") == []
    policy = window.evaluate(
        "document.querySelector('meta[http-equiv=Content-Security-Policy]').content"
    )
    assert "script-src 'self'" in policy
    assert "unsafe-eval" not in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_stored_messages_reach_the_page_unchanged_through_the_encoded_path(
    reused_window: Page,
) -> None:
    # Conversation sends the stored JSON as it is (WireJson): quotes, backslashes, line
    # separators, NUL, emoji and markup must come back exactly as the page sent them.
    text = 'it\'s "quoted" \\ back\\slash \u2028 \u2029 \x00 é 🎉 </script><b>x</b> ${x} \\u0041'
    room = api(reused_window, "ChannelService", "Create", "unchanged", "")
    sent = api(reused_window, "ChannelService", "Send", room["id"], text)
    messages = api(reused_window, "ChannelService", "Conversation", room["id"])["messages"]
    user = next(m for m in messages if m["id"] == sent)
    assert user["parts"][0]["text"] == text
    older = api(reused_window, "ChannelService", "Older", room["id"], messages[-1]["id"])
    assert [m["id"] for m in older["messages"]] == [m["id"] for m in messages[:-1]]
