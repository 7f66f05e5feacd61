"""Turns in words, in the real window (issue 29): the turn line says who answers now and who
next, and after Stop a kept line names who will not answer; a message nobody would answer is
said so before it is sent, with the members offered as buttons; @all routes to every member in
the channel's order; the routing preview opens who-will-answer, whose checkboxes rewrite the
draft, and the composer keeps the focus otherwise; the @ menu lists the members first, with
their avatars; Escape closes the innermost thing first. Screenshots: test-output/screenshots/
turn-next.png, recipients-popover.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.agents import fake_command
from tests.e2e.window import api, module_app, text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
BOX = "[data-testid=composer-input]"
PREVIEW = "[data-testid=routing-preview]"
WAIT = 30_000  # ms
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
# bob answers until stopped (a chunk every 20 ms); alice and carol answer at once. The
# configuration's order (alice, bob, carol) is not the channels' member orders below.
AGENTS = {"alice": [], "bob": ["slow"], "carol": []}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    folder = tmp_path_factory.mktemp("turns")
    lines = ["agents:"]
    for name, behaviours in AGENTS.items():
        lines += [f"  - name: {name}", f"    command: {json.dumps(fake_command(*behaviours))}"]
    config = folder / "turns.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 820})
        yield page


def open_channel(page: Page, name: str, members: list[str]) -> str:
    channel = api(page, "ChannelService", "Create", name, "", members)
    page.locator("[data-testid=channel-item]", has_text=name).click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{channel['id']}']")
    return str(channel["id"])


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement?.dataset?.testid ?? ''"))


def idle(page: Page) -> None:
    page.wait_for_selector(f"{CONVERSATION}[data-busy=false]", timeout=WAIT)


def test_the_turn_line_says_who_is_next_and_stop_keeps_who_will_not_answer(app: Page) -> None:
    page = app
    room = open_channel(page, "relay", ["bob", "alice"])
    box = page.locator(BOX)
    box.fill("@bob, then @alice")
    box.press("Enter")
    turn = page.locator("[data-testid=turn][data-answering=bob]")
    expect(turn).to_have_attribute("data-next", "alice", timeout=WAIT)
    expect(turn).to_contain_text("@bob is answering… · then @alice", timeout=WAIT)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "turn-next.png"))

    page.locator("[data-testid=stop]").click()
    dropped = page.locator(f"{MESSAGE}[data-code=recipients-dropped]")
    expect(dropped).to_contain_text("Stopped: @alice will not answer this message", timeout=WAIT)
    idle(page)
    assert focused(page) == "composer-input"
    # Kept in the conversation: what a reopened page reads.
    kept = api(page, "ChannelService", "Conversation", room)["messages"]
    assert [m["dropped"] for m in kept if m["code"] == "recipients-dropped"] == [["alice"]]
    assert not [m for m in kept if m["role"] == "agent" and m["agent"] == "alice"]


def test_a_message_nobody_would_answer_says_so_and_offers_the_members(app: Page) -> None:
    page = app
    room = open_channel(page, "nobody", ["carol", "alice"])
    box = page.locator(BOX)
    box.click()
    box.press_sequentially("hello")
    preview = page.locator(PREVIEW)
    expect(preview).to_contain_text("Nobody will answer")
    offers = page.locator("[data-testid=address-member]")
    assert [o.get_attribute("data-agent") for o in offers.all()] == ["carol", "alice"]
    expect(offers.first.locator("[data-testid=agent-avatar]")).to_have_count(1)

    offers.nth(1).click()
    expect(box).to_have_value("@alice hello")
    expect(preview).to_have_attribute("data-recipients", "alice")
    assert focused(page) == "composer-input"  # the button never took the keyboard
    box.press_sequentially(" there")
    expect(box).to_have_value("@alice hello there")

    # Sent anyway, without a recipient: Send says so; kept, and the no-recipient line follows.
    box.fill("hello anyway")
    expect(page.locator("[data-testid=send]")).to_have_attribute(
        "title", "Send anyway: nobody will answer (Enter)"
    )
    box.press("Enter")
    line = page.locator(f"{MESSAGE}[data-code=no-recipient]")
    expect(line).to_have_count(1, timeout=WAIT)
    kept = api(page, "ChannelService", "Conversation", room)["messages"]
    assert [m["role"] for m in kept][-2:] == ["user", "system"]


def test_at_all_routes_to_every_member_in_the_channels_order(app: Page) -> None:
    page = app
    open_channel(page, "everyone", ["carol", "alice"])
    box = page.locator(BOX)
    box.fill("@all status?")
    expect(page.locator(PREVIEW)).to_have_attribute("data-recipients", "carol,alice")
    expect(page.locator(PREVIEW)).to_contain_text("@carol, then @alice will answer")
    box.press("Escape")  # the @ completion, if open
    box.press("Enter")
    answers = page.locator(f"{MESSAGE}[data-role=agent][data-done=true]")
    expect(answers).to_have_count(2, timeout=WAIT)
    assert [a.get_attribute("data-agent") for a in answers.all()] == ["carol", "alice"]
    idle(page)


def test_the_preview_changes_who_answers_and_the_composer_keeps_the_focus(app: Page) -> None:
    page = app
    open_channel(page, "choose", ["carol", "alice", "bob"])
    box = page.locator(BOX)
    box.click()
    box.press_sequentially("@carol what now?")
    # A press on the line under the box (not a control) leaves the keyboard in the box.
    page.locator("[data-testid=composer] .keys").click()
    assert focused(page) == "composer-input"
    box.press_sequentially("!")
    expect(box).to_have_value("@carol what now?!")

    choose = page.locator("[data-testid=routing-choose]")
    expect(choose).to_have_attribute("aria-expanded", "false")
    choose.click()
    popover = page.locator("[data-testid=recipients-popover]")
    expect(popover).to_be_visible()
    choices = popover.locator("[data-testid=recipient-choice]")
    assert [c.get_attribute("data-agent") for c in choices.all()] == ["carol", "alice", "bob"]
    assert page.evaluate("document.activeElement?.type") == "checkbox"  # opening takes it
    carol = choices.nth(0).locator("input")
    expect(carol).to_be_checked()
    expect(carol).to_be_disabled()  # the only recipient: someone must answer

    choices.nth(2).locator("input").check()
    expect(box).to_have_value("@carol @bob what now?!")
    choices.nth(0).locator("input").uncheck()
    expect(box).to_have_value("@bob what now?!")
    expect(page.locator(PREVIEW)).to_have_attribute("data-recipients", "bob")
    page.screenshot(path=str(SHOTS / "recipients-popover.png"))

    page.keyboard.press("Escape")
    expect(popover).to_have_count(0)
    page.wait_for_function("document.activeElement?.dataset?.testid === 'composer-input'")
    assert page.locator(f"{CONVERSATION}[data-busy=false]").count() == 1
    box.press_sequentially(" ok")
    expect(box).to_have_value("@bob what now?! ok")

    choose.click()
    expect(popover).to_be_visible()
    popover.locator("[data-testid=recipients-done]").click()
    expect(popover).to_have_count(0)
    page.wait_for_function("document.activeElement?.dataset?.testid === 'composer-input'")
    box.fill("")


def test_the_at_menu_lists_the_members_first_with_their_avatars(app: Page) -> None:
    page = app
    open_channel(page, "mentions", ["carol", "bob"])
    box = page.locator(BOX)
    box.click()
    box.press_sequentially("@")
    items = page.locator("[data-testid=completion] [role=option]")
    expect(items).to_have_count(5)
    assert [i.get_attribute("data-value") for i in items.all()] == [
        "@carol",
        "@bob",
        "@alice",
        "@here",
        "@all",
    ]
    for agent in items.all()[:3]:
        expect(agent.locator("[data-testid=agent-avatar]")).to_have_count(1)
    assert "joins the channel" in text_of(items.nth(2))
    assert "every member of this channel" in text_of(items.nth(4))
    box.press("Escape")
    expect(page.locator("[data-testid=completion]")).to_have_count(0)
    box.fill("")


def test_escape_closes_the_completion_then_the_edit_then_stops_the_answer(app: Page) -> None:
    page = app
    open_channel(page, "layers", ["alice", "bob"])
    box = page.locator(BOX)
    box.fill("@alice first")
    box.press("Enter")
    expect(page.locator(f"{MESSAGE}[data-role=agent][data-done=true]")).to_have_count(
        1, timeout=WAIT
    )
    idle(page)
    first = page.locator(f"{MESSAGE}[data-role=user]").first
    box.fill("@bob go on")
    box.press("Enter")
    page.wait_for_selector("[data-testid=turn][data-answering=bob]", timeout=WAIT)

    first.hover()
    first.locator("[data-testid=action-edit]").click()
    editing = page.locator("[data-testid=composer-editing]")
    expect(editing).to_be_visible()
    expect(box).to_have_value("@alice first")
    page.wait_for_function("document.activeElement?.dataset?.testid === 'composer-input'")
    box.press("End")
    box.press_sequentially(" @")
    completion = page.locator("[data-testid=completion]")
    expect(completion).to_be_visible()

    box.press("Escape")  # 1: the completion
    expect(completion).to_have_count(0)
    expect(editing).to_be_visible()
    assert page.locator(f"{CONVERSATION}[data-busy=true]").count() == 1

    box.press("Escape")  # 2: the edit (the box gets back what it held: nothing)
    expect(editing).to_have_count(0)
    expect(box).to_have_value("")
    assert page.locator(f"{CONVERSATION}[data-busy=true]").count() == 1

    box.press("Escape")  # 3: the answer
    idle(page)
    stopped = page.locator(f"{MESSAGE}[data-role=agent][data-agent=bob]")
    expect(stopped).to_contain_text("Stopped: the answer was cancelled", timeout=WAIT)
