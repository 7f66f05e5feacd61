"""Conversations in the real window (UI II): direct and channel conversations with the demo
agent and scriptable fakes, driven over CDP like a person would, with screenshots of each view
in both themes (test-output/screenshots/conversation-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel, Message, Part
from app.paths import data_dir
from tests.agents import agent_yaml
from tests.e2e.window import api, back_home, module_app, open_conversation, text_of, until

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
WAIT = 30_000  # ms: agents start, answer and stream within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the module: each test talks to agents of its own and makes its own
    channels. Room for all of them running at once (none is stopped to make room)."""
    folder = tmp_path_factory.mktemp("conversation")
    config = folder / "conversation.yaml"
    config.write_text(
        "limits:\n  maxRunningAgents: 10\n"
        "agents:\n"
        "  - name: demo\n    builtin: demo\n    icon: 🧪\n"
        "    description: Works offline; shows every kind of message\n"
        + agent_yaml("alpha", "commands", "usage", title="Alpha")
        + agent_yaml("beta", title="Beta")
        + agent_yaml("slowpoke", "slow")
        + agent_yaml("asker", "permission-twice")
        + agent_yaml("crasher", "exit-mid-turn")
        + agent_yaml("broken", "crash-on-start"),
        encoding="utf-8",
    )
    with module_app(folder, ["--config", str(config)], before_start=lambda: seed(config)) as (
        page,
        _proc,
    ):
        yield page, folder / "app.log"


def seed(config: Path) -> None:
    """The channel "history", without members, holding what 250 messages sent to it leave:
    each followed by its `no-recipient` line (500 messages). Written before the app starts:
    sending them one by one through the page took seconds."""
    history = LmdbHistory(data_dir(config))
    channel = Channel(id=new_id(), name="history", description="500 messages")
    history.put_channel(StoredChannel(channel=channel))
    start = datetime.now(UTC) - timedelta(hours=1)

    def at(step: int) -> str:
        return (start + timedelta(milliseconds=step)).isoformat().replace("+00:00", "Z")

    kept: list[Message] = []
    for i in range(250):
        text = [Part(kind="text", text=f"message {i}")]
        kept.append(
            Message(id=new_id(), channel=channel.id, created_at=at(2 * i), role="user", parts=text)
        )
        kept.append(
            Message(
                id=new_id(),
                channel=channel.id,
                created_at=at(2 * i + 1),
                role="system",
                code="no-recipient",
            )
        )
    history.add_messages(kept)
    history.close()


@pytest.fixture
def app(one_window: tuple[Page, Path]) -> Page:
    page, log = one_window
    return back_home(page, log, (1280, 860))


# ---- helpers --------------------------------------------------------------------------------


def shoot(page: Page, shots: Path, name: str) -> None:
    """Screenshots the window in the light and the dark theme."""
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"conversation-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def messages(page: Page) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(
        MESSAGE,
        """els => els.map(e => ({id: e.dataset.id, role: e.dataset.role, code: e.dataset.code,
            agent: e.dataset.agent, done: e.dataset.done, queued: e.dataset.queued,
            stop: e.dataset.stop, text: e.textContent}))""",
    )


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes a completion opened by @ or /, so Enter sends
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def wait_messages(page: Page, expression: str, timeout: int = WAIT) -> None:
    """Waits until `expression` is true of `ms`, the conversation's rendered messages."""
    page.wait_for_function(
        f"""() => {{
            const ms = [...document.querySelectorAll('{MESSAGE}')].map(e => ({{
                role: e.dataset.role, code: e.dataset.code, agent: e.dataset.agent,
                done: e.dataset.done, queued: e.dataset.queued, stop: e.dataset.stop,
                text: e.textContent}}));
            return {expression};
        }}""",
        timeout=timeout,
    )


def texts_built(page: Page) -> None:
    """Waits until the first and the last two messages' texts are built: a finished text is
    built within a frame's budget or, the rest, at an idle moment (ui parts/fillSoon.ts), and
    shows empty, marked `data-filling`, until then (seen under load at the list's top)."""
    page.wait_for_function(
        """() => {
            const ms = [...document.querySelectorAll('[data-testid=message]')];
            const ends = [...ms.slice(0, 2), ...ms.slice(-2)];
            return ms.length > 0 && ends.every((m) => !m.querySelector('[data-filling]'));
        }""",
        timeout=WAIT,
    )


def preview(page: Page) -> dict[str, str]:
    return page.eval_on_selector(
        "[data-testid=routing-preview]",
        "e => ({recipients: e.dataset.recipients, command: e.dataset.command,"
        " text: e.textContent})",
    )


def type_preview(page: Page, text: str) -> dict[str, str]:
    page.locator("[data-testid=composer-input]").fill(text)
    return preview(page)


def open_channel(page: Page, name: str) -> None:
    open_conversation(page, "[data-testid=channel-item]", name)
    page.wait_for_function(
        "(n) => document.querySelector('#conversation-title')?.textContent.trim() === n", arg=name
    )


def create_channel(page: Page, name: str, description: str = "") -> None:
    page.click("[data-testid=new-channel]")
    page.fill("[data-testid=channel-name]", name)
    page.fill("[data-testid=channel-description]", description)
    page.click("[data-testid=channel-save]")
    page.wait_for_selector("[data-testid=channel-dialog][open]", state="detached", timeout=5000)
    page.wait_for_function(
        "(n) => document.querySelector('#conversation-title')?.textContent.trim() === n", arg=name
    )
    page.wait_for_selector(CONVERSATION)


# ---- tests ----------------------------------------------------------------------------------


def test_a_direct_turn_shows_every_part_kind(app: Page, shots: Path) -> None:
    page = app
    # One click on the agent's entry opens its direct conversation.
    open_conversation(page, "[data-testid=agent-item]", "demo")
    assert page.inner_text("#conversation-title").startswith("demo")
    assert page.locator("[data-testid=direct-item]", has_text="demo").count() == 1
    assert preview(page)["recipients"] == "demo"

    # Prepare() started the demo in the background: its commands complete after `/`.
    box = page.locator("[data-testid=composer-input]")
    box.fill("/")
    page.wait_for_selector("[data-testid=completion] [data-value='/bench']", timeout=WAIT)
    labels = page.eval_on_selector_all(
        "[data-testid=completion] [role=option]", "els => els.map(e => e.innerText)"
    )
    assert any("/bench" in label and "number of chunks" in label for label in labels)
    shoot(page, shots, "completion-commands")
    box.press("ArrowDown")  # /echo
    box.press("Enter")  # accepts the completion, does not send
    assert box.input_value() == "/echo "
    assert "/echo text to repeat" in page.inner_text("[data-testid=command-hint]")
    assert preview(page)["command"] == "true"
    # Shift+Enter is a new line, not a send.
    box.fill("two")
    box.press("Shift+Enter")
    box.type("lines")
    assert box.input_value() == "two\nlines"
    assert page.locator(MESSAGE).count() == 0

    send(page, "Please improve greet")
    # The permission is asked inline, impossible to miss; the focus stays in the composer.
    page.wait_for_selector("[data-testid=permission][data-state=pending]", timeout=WAIT)
    prompt = page.locator("[data-testid=permission][data-state=pending]")
    assert [b.get_attribute("data-option") for b in prompt.locator("button").all()] == [
        "allow",
        "allow-always",
        "reject",
    ]
    assert "Edit sidekicks_demo.py" in text_of(prompt)
    assert page.locator("[data-testid=direct-item] [data-testid=marker-permission]").count() == 1
    assert page.locator("[data-testid=turn]").inner_text().startswith("@demo is answering")
    shoot(page, shots, "direct-permission")

    prompt.locator("[data-option=allow]").focus()  # as Tab would: a deliberate move
    page.keyboard.press("Enter")  # the focused option: Allow
    wait_messages(page, "ms.some(m => m.role === 'agent' && m.done === 'true')")
    page.wait_for_selector("[data-testid=turn]", state="detached")

    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    # Thought: folded.
    thought = answer.locator("[data-part=thought]")
    assert thought.count() == 1 and thought.get_attribute("open") is None
    # Plan: three steps, all completed in the end.
    statuses = answer.locator("[data-part=plan] li").evaluate_all(
        "els => els.map(e => e.dataset.status)"
    )
    assert statuses == ["completed", "completed", "completed"]
    # Tool calls: kind and status, the edit unfolded on its diff (a real unified diff).
    tools = answer.locator("[data-part=tool]").evaluate_all(
        "els => els.map(e => [e.dataset.kind, e.dataset.status, e.open])"
    )
    assert tools == [
        ["read", "completed", False],
        ["search", "completed", False],
        ["edit", "completed", True],
        ["execute", "completed", False],
    ]
    diff = answer.locator("[data-testid=diff]")
    assert diff.locator("tr.del").count() == 2 and diff.locator("tr.add").count() == 2
    assert "def greet(name: str) -> str:" in diff.locator("tr.add").first.inner_text()
    assert diff.locator("tr.hunk").inner_text() == "@@ -1,2 +1,2 @@"
    answer.locator("[data-part=tool][data-kind=read] summary").click()
    read = answer.locator("[data-part=tool][data-kind=read]")
    assert "README.md:1" in read.inner_text().replace(" ", "")
    assert '"path"' in read.locator("pre").first.inner_text()
    # Markdown: heading, list, highlighted Python with a copy button.
    assert answer.locator(".markdown h2").inner_text() == "Demo answer"
    assert answer.locator(".markdown li").count() >= 4
    code = answer.locator(".code-block")
    assert code.locator(".hljs-keyword").count() >= 1
    assert code.locator(".copy-code").inner_text() == "Copy"
    code.locator(".copy-code").click()
    page.wait_for_function(
        "() => document.querySelector('.copy-code')?.textContent !== 'Copy'", timeout=5000
    )
    # The permission stays, resolved; the marker is gone; no stop reason for a normal end.
    assert "Answered: Allow" in answer.locator("[data-testid=permission-outcome]").inner_text()
    assert page.locator("[data-testid=marker-permission]").count() == 0
    assert answer.locator("[data-testid=stop-reason]").count() == 0
    # Context usage, from usage:changed, in the header.
    meter = page.locator("[data-testid=conversation-header] [data-testid=usage]")
    meter.wait_for()
    assert int(meter.get_attribute("data-size") or 0) > 0
    assert "tokens of context used" in (meter.get_attribute("title") or "")
    page.evaluate("() => document.activeElement?.blur()")
    shoot(page, shots, "direct-answer")

    answer.locator("[data-part=thought] summary").click()
    answer.locator("[data-part=plan]").scroll_into_view_if_needed()
    shoot(page, shots, "direct-parts")

    # The agent's details and logs are one click away.
    page.click("[data-testid=agent-details]")
    page.wait_for_selector("[data-testid=agents-panel]")
    page.wait_for_function("() => document.activeElement?.dataset.agent === 'demo'")


def test_a_channel_routes_by_mentions_then_last_responder(app: Page, shots: Path) -> None:
    page = app
    before = {c["id"] for c in api(page, "ChannelService", "List")}  # other tests' channels
    create_channel(page, "review", "Two agents at work")
    assert page.locator("[data-testid=channel-item]", has_text="review").count() == 1
    review = next(c for c in api(page, "ChannelService", "List") if c["name"] == "review")
    api(page, "HandoffService", "SetHandoffs", review["id"], 0)  # the echo fakes repeat mentions
    assert "No members yet" in page.inner_text("[data-testid=members]")
    assert "Nobody will answer" in type_preview(page, "hello")["text"]

    # @mention: the agent joins, then answers.
    shown = type_preview(page, "@alpha please look")
    assert shown["recipients"] == "alpha" and "@alpha joins the channel" in shown["text"]
    page.locator("[data-testid=composer-input]").fill("")
    page.locator("[data-testid=composer-input]").type("@al")
    page.wait_for_selector("[data-testid=completion] [data-value='@alpha']")
    shoot(page, shots, "completion-mentions")
    page.keyboard.press("Tab")
    assert page.locator("[data-testid=composer-input]").input_value() == "@alpha "
    send(page, "@alpha please look")
    wait_messages(
        page,
        "ms.some(m => m.code === 'agent-joined' && m.text.includes('@alpha joined'))"
        " && ms.some(m => m.agent === 'alpha' && m.done === 'true')",
    )
    assert "echo: @alpha please look" in messages(page)[-1]["text"]

    # No mention: the last agent that answered.
    assert type_preview(page, "and now?")["recipients"] == "alpha"
    # alpha announced its commands: `/` offers them, plain and as /alpha:command.
    page.locator("[data-testid=composer-input]").fill("/")
    page.wait_for_selector("[data-testid=completion] [data-value='/alpha:hello']", timeout=WAIT)
    assert page.locator("[data-testid=completion] [data-value='/hello']").count() == 1
    shown = type_preview(page, "/alpha:hello world")
    assert shown["recipients"] == "alpha" and shown["command"] == "true"

    # A second member, added from the header: the channel says so.
    page.select_option("[data-testid=add-member]", "beta")
    wait_messages(page, "ms.some(m => m.code === 'agent-joined' && m.text.includes('@beta'))")
    assert type_preview(page, "still you?")["recipients"] == "alpha"  # the last responder
    shown = type_preview(page, "@beta @alpha both of you")
    assert shown["recipients"] == "beta,alpha" and "one after the other" in shown["text"]
    send(page, "@beta @alpha both of you")
    wait_messages(
        page,
        "ms.filter(m => m.role === 'agent' && m.done === 'true').map(m => m.agent).join() ==="
        " 'alpha,beta,alpha'",
    )
    assert type_preview(page, "who now?")["recipients"] == "alpha"  # answered last
    page.locator("[data-testid=composer-input]").fill("")
    page.evaluate("() => document.activeElement?.blur()")
    shoot(page, shots, "channel")

    # Removing the last responder: with two members left… one: it answers.
    page.locator("[data-member=alpha] [data-testid=remove-member]").click()
    wait_messages(page, "ms.some(m => m.code === 'agent-left' && m.text.includes('@alpha'))")
    assert type_preview(page, "anyone?")["recipients"] == "beta"

    # Two members, nobody answered yet: nobody answers.
    create_channel(page, "quiet")
    for agent in ("alpha", "beta"):
        page.select_option("[data-testid=add-member]", agent)
        wait_messages(page, f"ms.some(m => m.text.includes('@{agent} joined'))")
    assert type_preview(page, "hello?")["recipients"] == ""
    send(page, "hello?\nanyone here?")
    wait_messages(page, "ms.some(m => m.code === 'no-recipient')")
    assert "Nobody answered: mention an agent with @name" in messages(page)[-1]["text"]
    # What a person typed keeps its line breaks.
    assert page.locator(f"{MESSAGE}[data-role=user] .markdown br").count() == 1

    # A channel that gets an answer while not shown is marked unread.
    review = next(c for c in api(page, "ChannelService", "List") if c["name"] == "review")
    api(page, "ChannelService", "Send", review["id"], "@beta ping")
    unread = page.locator("[data-testid=channel-item]", has_text="review").locator(
        "[data-testid=marker-unread]"
    )
    unread.wait_for(timeout=WAIT)
    shoot(page, shots, "channel-no-recipient")
    open_channel(page, "review")
    unread.wait_for(state="detached")
    wait_messages(page, "ms.some(m => m.text.includes('echo: @beta ping'))")

    # Rename, then delete (after confirming).
    page.click("[data-testid=rename-channel]")
    page.fill("[data-testid=channel-name]", "quiet")
    page.click("[data-testid=channel-save]")
    page.wait_for_selector("[data-testid=channel-error]")
    assert "already exists" in page.inner_text("[data-testid=channel-error]")
    page.fill("[data-testid=channel-name]", "code-review")
    page.click("[data-testid=channel-save]")
    page.wait_for_function(
        "() => document.querySelector('#conversation-title')?.textContent.trim() === 'code-review'"
    )
    page.locator("[data-testid=channel-item]", has_text="code-review").wait_for()
    page.click("[data-testid=delete-channel]")
    page.wait_for_selector("[data-testid=dialog][open]")
    shoot(page, shots, "channel-delete")
    page.click("[data-testid=dialog] [data-choice=delete]")
    page.locator("[data-testid=channel-item]", has_text="code-review").wait_for(state="detached")
    page.wait_for_selector("[data-testid=agents-panel]")
    left = api(page, "ChannelService", "List")
    assert [c["name"] for c in left if not c["direct"] and c["id"] not in before] == ["quiet"]


def test_messages_queue_then_stop_cancels_them(app: Page, shots: Path) -> None:
    page = app
    open_conversation(page, "[data-testid=agent-item]", "slowpoke")
    send(page, "first")
    wait_messages(page, "ms.some(m => m.agent === 'slowpoke' && m.text.includes('tick 3'))")
    assert "@slowpoke is answering" in page.inner_text("[data-testid=turn]")
    send(page, "second")
    send(page, "third")
    wait_messages(page, "ms.filter(m => m.queued === 'true').length === 2")
    assert "2 messages queued" in page.inner_text("[data-testid=turn]")
    page.locator("[data-testid=composer-input]").fill("fourth?")
    assert "queued until the current answer ends" in preview(page)["text"]
    page.locator("[data-testid=composer-input]").fill("")

    # The same agent asked from a channel waits for its turn, and says where it is.
    slowpoke_dm = page.get_attribute("[data-testid=conversation]", "data-channel")
    create_channel(page, "waiting")
    send(page, "@slowpoke are you there?")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=turn]')?.innerText.includes("
        "'Waiting for @slowpoke: it is answering in slowpoke')",
        timeout=WAIT,
    )
    shoot(page, shots, "turn-waiting")
    # Stop here: it is no longer due, yet it still waits for the agent to be free (the backend
    # ends this turn once the other channel lets the agent go).
    page.click("[data-testid=stop]")
    waiting = page.get_attribute("[data-testid=conversation]", "data-channel")

    page.locator("[data-testid=direct-item]", has_text="slowpoke").click()
    page.wait_for_selector(f"[data-testid=conversation][data-channel='{slowpoke_dm}']")
    wait_messages(page, "ms.filter(m => m.queued === 'true').length === 2")
    shoot(page, shots, "queued")
    page.click("[data-testid=stop]")
    wait_messages(
        page,
        "ms.some(m => m.agent === 'slowpoke' && m.done === 'true' && m.stop === 'cancelled')"
        " && ms.filter(m => m.text.includes('Not sent: stopped before its turn')).length === 2",
    )
    page.wait_for_selector("[data-testid=turn]", state="detached", timeout=WAIT)
    until(
        page,
        "(id) => window.pywebview.api.ChannelService.Conversation(id).then(c => !c.busy)",
        waiting,
    )
    stopped = page.locator(f"{MESSAGE}[data-role=agent]").last
    assert "Stopped: the answer was cancelled" in stopped.inner_text()
    assert [m["queued"] for m in messages(page)] == [None] * len(messages(page))
    shoot(page, shots, "stopped")


def test_a_permission_rejected_then_allowed_counts_refusals(app: Page, shots: Path) -> None:
    page = app
    open_conversation(page, "[data-testid=agent-item]", "asker")
    send(page, "may I?")
    first = page.locator("[data-testid=permission][data-state=pending]")
    first.wait_for(timeout=WAIT)
    assert first.locator("[data-testid=refusals]").count() == 0
    assert first.locator("[data-kind=allow_once]").evaluate("e => e.classList.contains('allow')")
    assert first.locator("[data-kind=reject_once]").evaluate("e => e.classList.contains('reject')")
    first_id = first.get_attribute("data-request")
    first.locator("[data-option=reject]").click()

    # The second request of the turn says the first was refused.
    second = page.locator(
        f"[data-testid=permission][data-state=pending]:not([data-request='{first_id}'])"
    )
    second.wait_for(timeout=WAIT)
    assert second.locator("[data-testid=refusals]").inner_text().strip() == (
        "refused once this turn"
    )
    resolved = page.locator(f"[data-testid=permission][data-request='{first_id}']")
    assert resolved.get_attribute("data-state") == "resolved"
    assert "Answered: Reject" in resolved.inner_text()
    page.evaluate("() => document.activeElement?.blur()")
    shoot(page, shots, "permission-refused")
    second.locator("[data-option=allow]").click()
    wait_messages(page, "ms.some(m => m.agent === 'asker' && m.done === 'true')")
    text = messages(page)[-1]["text"]
    assert "permission: reject" in text and "permission: allow" in text and "echo: may I?" in text
    outcomes = page.locator("[data-testid=permission-outcome]").all_inner_texts()
    assert [o.strip() for o in outcomes] == ["Answered: Reject", "Answered: Allow"]
    assert page.locator("[data-testid=marker-permission]").count() == 0


def test_failures_show_in_the_conversation(app: Page, shots: Path) -> None:
    page = app
    # An agent that dies mid-answer: the answer ends with its error and last stderr lines.
    open_conversation(page, "[data-testid=agent-item]", "crasher")
    send(page, "hello")
    error = page.locator(f"{MESSAGE}[data-role=agent] [data-testid=message-error]")
    error.wait_for(timeout=WAIT)
    assert "The answer failed" in text_of(error)
    assert "dying mid-turn" in text_of(error)
    assert "starting…" in text_of(page.locator(f"{MESSAGE}[data-role=agent]"))
    shoot(page, shots, "answer-failed")

    # An agent that cannot start: the conversation says so, with why.
    page.locator("[data-testid=agent-item]", has_text="broken").click()
    page.wait_for_function(
        "() => document.querySelector('#conversation-title')?.textContent.includes('broken')"
    )
    page.wait_for_selector(CONVERSATION)
    send(page, "hello?")
    wait_messages(page, "ms.some(m => m.code === 'agent-unavailable')", timeout=60_000)
    unavailable = messages(page)[-1]
    assert unavailable["code"] == "agent-unavailable"
    assert "@broken is unavailable: " in unavailable["text"]
    shoot(page, shots, "agent-unavailable")


def test_scrolling_back_through_500_messages_keeps_the_dom_bounded(app: Page, shots: Path) -> None:
    page = app
    # 250 messages to a channel without members, each with its no-recipient line (seed()).
    room = next(c for c in api(page, "ChannelService", "List") if c["name"] == "history")

    def total() -> int:
        latest = api(page, "ChannelService", "Conversation", room["id"])
        count, more, first = len(latest["messages"]), latest["more"], latest["messages"][0]["id"]
        while more:
            older = api(page, "ChannelService", "Older", room["id"], first)
            count, more = count + len(older["messages"]), older["more"]
            first = older["messages"][0]["id"]
        return count

    until(
        page,
        """async (id) => {
            const c = await window.pywebview.api.ChannelService.Conversation(id);
            const last = c.messages[c.messages.length - 1];
            return !c.busy && last && last.code === 'no-recipient'
                && c.messages.length === 100;
        }""",
        room["id"],
        timeout=60,
    )
    assert total() == 500

    page.evaluate(
        """() => {
            window.__older = 0;
            const api = window.pywebview.api.ChannelService;
            const older = api.Older;
            api.Older = (...args) => { window.__older++; return older(...args); };
        }"""
    )
    open_channel(page, "history")
    rendered = "() => document.querySelectorAll('[data-testid=message]').length"
    # The latest messages first, then the rest of the first 100, a step per frame.
    page.wait_for_function(f"() => ({rendered})() === 100")
    assert messages(page)[-1]["code"] == "no-recipient"
    scroller = page.locator("[data-testid=messages]")
    assert scroller.get_attribute("data-following") == "true"

    counts = []
    for _ in range(40):  # scroll to the top until the beginning shows
        if page.locator("[data-testid=conversation-start]").count():
            break
        first = messages(page)[0]["id"]
        scroller.evaluate("e => { e.scrollTop = 0; }")
        page.wait_for_function(
            "(id) => document.querySelector('[data-testid=message]')?.dataset.id !== id"
            " || document.querySelector('[data-testid=conversation-start]')",
            arg=first,
        )
        counts.append(page.evaluate(rendered))
    assert page.locator("[data-testid=conversation-start]").count() == 1
    assert page.evaluate("window.__older") == 4  # 100 loaded first, then 4 pages of 100
    assert max(counts) <= 200, counts
    texts_built(page)
    first = messages(page)
    assert "message 0" in first[0]["text"] and first[1]["code"] == "no-recipient"
    assert scroller.get_attribute("data-following") == "false"
    page.locator("[data-testid=jump-to-latest]").wait_for()
    shoot(page, shots, "history-top")

    # Scrolling down moves the window back; "jump to latest" goes straight to the end.
    scroller.evaluate("e => { e.scrollTop = e.scrollHeight; }")
    page.wait_for_function(
        "(id) => document.querySelector('[data-testid=message]')?.dataset.id !== id",
        arg=first[0]["id"],
    )
    assert page.evaluate(rendered) <= 200
    page.click("[data-testid=jump-to-latest]")
    page.wait_for_selector("[data-testid=messages][data-following=true]")
    page.locator("[data-testid=jump-to-latest]").wait_for(state="detached")
    texts_built(page)
    last = messages(page)
    assert "message 249" in last[-2]["text"] and last[-1]["code"] == "no-recipient"
    assert page.evaluate(rendered) <= 200

    # Following the bottom: a new message scrolls into view.
    send(page, "one more")
    wait_messages(page, "ms.slice(-2)[0].text.includes('one more')")
    page.wait_for_function(
        "() => { const e = document.querySelector('[data-testid=messages]');"
        " return e.scrollHeight - e.scrollTop - e.clientHeight < 40; }"
    )
    shoot(page, shots, "history-bottom")
