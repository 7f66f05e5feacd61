"""The HTML export (app/channels/export/html_doc.py): one self-contained file whose messages are
rendered from Markdown with everything an agent wrote escaped: nothing executable comes out."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from app.channels.export import html_doc
from app.models.conversation import Channel, Message, Part, ToolCall
from tests.unit.channels.exported import CHANNEL, rich_conversation

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD4=)",
    "<JAVASCRIPT:alert(1)>",
    "![pixel](https://tracker.example/p.png)",
    "<style>body{display:none}",
    '<a href="javascript:alert(1)">x</a>',
    "<!-- unclosed comment",
    '<iframe src="https://example.com"></iframe>',
    '<svg onload="alert(1)">',
    "```html\n<script>alert(2)</script>\n```",
]


class Tags(HTMLParser):
    """Every start tag and its attributes, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def parse(text: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = Tags()
    parser.feed(text)
    return parser.tags


def export(messages: list[Message], channel: Channel = CHANNEL) -> str:
    return "".join(html_doc.document(channel, messages))


def agent_says(text: str, **fields: object) -> Message:
    return Message.model_validate(
        {
            "id": "m1",
            "channel": CHANNEL.id,
            "createdAt": "2026-12-01T06:31:05Z",
            "role": "agent",
            "agent": "alpha",
            "parts": [{"kind": "text", "text": text}],
            **fields,
        }
    )


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_from_an_agent_comes_out_as_inert_text(text: str) -> None:
    page = export([agent_says(text)])
    tags = parse(page)
    names = {tag for tag, _attrs in tags}
    assert names <= {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "p", "main",
        "article", "time", "pre", "code", "a", "em", "strong",
    }  # fmt: skip
    assert sum(tag == "style" for tag, _attrs in tags) == 1  # ours, in the head
    for _tag, attrs in tags:
        for name, value in attrs:
            assert not name.startswith("on")
            assert name not in {"src", "srcset"}
            if name == "href":
                assert value is not None
                assert value.startswith(("http:", "https:", "mailto:"))
    assert "<script" not in page.lower()
    assert "</article>\n</main>\n</body>\n</html>\n" in page  # nothing swallowed what follows


def test_the_agent_s_raw_html_is_shown_escaped() -> None:
    page = export([agent_says('<img src=x onerror="alert(1)"> and <b>bold</b>')])
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; and &lt;b&gt;bold&lt;/b&gt;" in page


def test_safe_links_stay_links_and_others_stay_their_text() -> None:
    page = export([agent_says("[site](https://example.com) [bad](javascript:alert(1))")])
    assert '<a href="https://example.com">site</a>' in page
    assert "[bad](javascript:alert(1))" in page


def test_the_page_is_self_contained_with_a_strict_policy_first() -> None:
    page = export(rich_conversation())
    head = page[: page.index("<style>")]
    assert (
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">" in head
    )
    assert "prefers-color-scheme: dark" in page
    assert not re.search(r"(src|href)=\"(?!https?:|mailto:)", page)
    assert "@import" not in page and "url(" not in page


def test_names_and_titles_from_agents_are_escaped_too() -> None:
    tool = ToolCall(id="t", title="<script>x</script>", kind="edit", status="completed")
    message = agent_says("hi", parts=[Part(kind="tool", tool=tool)], agent="<b>")
    channel = Channel(id=CHANNEL.id, name="<img src=x onerror=1>", description="<i>d</i>")
    page = export([message], channel)
    assert "<title>#&lt;img src=x onerror=1&gt;</title>" in page
    assert "@&lt;b&gt;" in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "&lt;i&gt;d&lt;/i&gt;" in page
    assert {tag for tag, _attrs in parse(page)}.isdisjoint({"script", "img", "b", "i"})


def test_a_rich_conversation_renders_each_kind_of_part() -> None:
    page = export(rich_conversation())
    assert "<details><summary>Thought</summary>" in page
    assert '<span class="del">-two</span>' in page and '<span class="add">+```</span>' in page
    assert "<li>☑ Read the notes</li>" in page and "<li>☐ Ship</li>" in page
    assert "$ pytest\nFAILED x" in page  # colours dropped
    assert "<em>New session — earlier messages are not sent to the agents</em>" in page
    assert "<code>spec.md</code>" in page
    assert '<p class="error"><strong>Error:</strong> the agent stopped</p>' in page
