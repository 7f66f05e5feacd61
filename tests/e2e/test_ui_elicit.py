"""An agent's questions in the real window (issue 26, elicitation): a form on the answer that
asked it, its agent text shown as text, checked before it is sent, answered Submit; the same
question listed in the inbox; a web address shown in full and opened in the system browser only
on the person's click. The fake: tests/fakes/acp2026_elicit.py. Screenshots go to
test-output/screenshots/elicitation-*.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.other_origin import opened, system_browser
from tests.e2e.window import running_app
from tests.waiting import wait_for

pytestmark = pytest.mark.e2e

FAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "acp2026_elicit.py")
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 30_000


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return tmp_path / "opened.txt"


@pytest.fixture
def app(tmp_path: Path, record: Path) -> Iterator[Page]:
    config = tmp_path / "elicit.yaml"
    config.write_text(
        "agents:\n  - name: asker\n    title: Asker\n"
        f"    command: {json.dumps([sys.executable, FAKE])}\n",
        encoding="utf-8",
    )
    env = system_browser(record)
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def last_answer_text(page: Page) -> str:
    answer = page.locator(f"{CONVERSATION} [data-testid=message][data-role=agent]").last
    expect(answer).to_contain_text("answer=", timeout=WAIT)
    return answer.inner_text()


def test_a_form_is_checked_then_answered_from_the_conversation(app: Page, shots: Path) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="Asker").click()
    page.wait_for_selector(CONVERSATION)
    send(page, "form")

    prompt = page.locator(f"{CONVERSATION} [data-testid=elicitation][data-mode=form]")
    expect(prompt).to_be_visible(timeout=WAIT)
    # The agent's text is text: its tags are shown, never made elements.
    expect(prompt.get_by_test_id("elicitation-message")).to_have_text("Please fill <i>this</i> in")
    assert prompt.locator("i, b").count() == 0
    expect(prompt.get_by_test_id("elicitation-title")).to_have_text("Deployment <b>settings</b>")
    name = prompt.locator("[data-field=name] input")
    expect(name).to_have_value("demo")  # the schema's default
    expect(prompt.locator("[data-field=replicas] input")).to_have_value("2")
    expect(prompt.locator("[data-field=strange]")).to_have_count(0)
    page.screenshot(path=str(shots / "elicitation-form.png"))

    # The inbox lists the same question.
    page.get_by_test_id("inbox-entry").click()
    expect(page.get_by_test_id("inbox-question")).to_have_count(1, timeout=WAIT)
    page.screenshot(path=str(shots / "elicitation-inbox.png"))
    page.get_by_test_id("inbox-question").get_by_test_id("inbox-open").click()
    prompt = page.locator(f"{CONVERSATION} [data-testid=elicitation][data-mode=form]")

    # Checked before anything is sent: the required name is empty, replicas out of bounds.
    prompt.locator("[data-field=name] input").fill("")
    prompt.locator("[data-field=replicas] input").fill("9")
    prompt.locator("[data-action=accept]").click()
    problems = prompt.get_by_test_id("field-problem")
    expect(problems).to_have_count(2)
    expect(problems.nth(0)).to_have_text("Name is required")
    expect(problems.nth(1)).to_have_text("replicas must be at most 5")
    page.screenshot(path=str(shots / "elicitation-problems.png"))

    prompt.locator("[data-field=name] input").fill("web")
    prompt.locator("[data-field=replicas] input").fill("3")
    prompt.locator("[data-field=region] select").select_option("us")
    prompt.locator("[data-field=features] label", has_text="Beta").click()
    prompt.locator("[data-field=confirm] input").check()
    prompt.locator("[data-action=accept]").click()

    expect(prompt).to_have_count(0, timeout=WAIT)
    sent = json.loads(last_answer_text(page).split("answer=", 1)[1].strip())
    assert sent == {
        "action": "accept",
        "content": {"name": "web", "region": "us", "replicas": 3, "confirm": True,
                    "features": ["b"]},
    }  # fmt: skip
    page.get_by_test_id("inbox-entry").click()
    expect(page.get_by_test_id("inbox-question")).to_have_count(0)


def test_a_web_address_opens_only_on_the_persons_click(
    app: Page, record: Path, shots: Path
) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="Asker").click()
    page.wait_for_selector(CONVERSATION)
    send(page, "url")

    prompt = page.locator(f"{CONVERSATION} [data-testid=elicitation][data-mode=url]")
    expect(prompt).to_be_visible(timeout=WAIT)
    expect(prompt.get_by_test_id("elicitation-url")).to_have_text("https://example.com/login?x=1")
    page.screenshot(path=str(shots / "elicitation-url.png"))
    assert opened(record) == []  # shown, not opened

    prompt.get_by_test_id("elicitation-open").click()

    assert json.loads(last_answer_text(page).split("answer=", 1)[1].strip()) == {"action": "accept"}
    assert wait_for(lambda: opened(record), 10, "the system browser") == [
        "https://example.com/login?x=1"
    ]
