"""The Markdown export (app/channels/export/markdown.py): exact text for a rich conversation, fences
that no backtick run closes, and one message as "Copy" takes it."""

from __future__ import annotations

import re

from app.channels.export import markdown
from app.models.conversation import Diff, Message, Part, ToolCall
from tests.unit.channels.exported import CHANNEL, rich_conversation

EXPECTED = """\
# #dev

*Exported from Sidekicks on <time>.*

### Sidekicks · 2026-12-01 06:31:05 UTC

*@alpha joined the channel*

### You · 2026-12-01 06:32:05 UTC

@alpha fix **it**

Attached: `spec.md`

### @alpha · 2026-12-01 06:33:05 UTC

> **Thought**
>
> Let me look.
> The notes first.

**Tool call** · edit · Edit notes.md · completed

````diff
--- a/notes.md
+++ b/notes.md
@@ -1,2 +1,3 @@
 one
-two
+```
+2
````

**Plan**

- [x] Read the notes
- [ ] Fix \\*the\\* tests *(in progress)*
- [ ] Ship

**Tool call** · execute · Run tests · failed

```console
$ pytest
FAILED x
```

Exit code: 1

Done: see `notes.md`.

### Sidekicks · 2026-12-01 06:34:05 UTC

*New session — earlier messages are not sent to the agents*

### @beta · 2026-12-01 06:35:05 UTC

Half

*Stopped before the end.*

### @beta · 2026-12-01 06:36:05 UTC

> **Error:** the agent stopped
"""


def test_a_rich_conversation_exports_to_exactly_this_markdown() -> None:
    text = "".join(markdown.document(CHANNEL, rich_conversation()))
    text = re.sub(r"on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "on <time>", text)
    assert text == EXPECTED


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    assert markdown.fence("a ````` b", "") == "``````\na ````` b\n``````"
    assert markdown.code_span("`x`") == "`` `x` ``"


def test_copying_a_message_gives_its_content_without_heading() -> None:
    message = Message(
        id="m",
        channel="c",
        created_at="2026-12-01T00:00:00Z",
        role="agent",
        agent="alpha",
        parts=[
            Part(kind="text", text="# Title\n\n<b>kept as written</b>"),
            Part(
                kind="tool",
                tool=ToolCall(
                    id="t",
                    title="New",
                    kind="edit",
                    diffs=[Diff(path="a.txt", new_text="hi\n", new_file=True)],
                ),
            ),
        ],
    )
    assert markdown.message_markdown(message) == (
        "# Title\n\n<b>kept as written</b>\n\n**Tool call** · edit · New · pending\n\n"
        "```diff\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hi\n```\n"
    )


def test_a_system_message_copies_as_an_italic_sentence() -> None:
    message = Message(
        id="m", channel="c", created_at="x", role="system", agent="a_b", code="agent-left"
    )
    assert markdown.message_markdown(message) == "*@a_b left the channel*\n"


def test_the_parts_of_2026_are_exported_compaction_sub_agent_and_plan_text() -> None:
    from app.channels.export.html_doc import _part as html_part
    from app.models.conversation import Compaction, Subagent

    child = Subagent(
        session_id="kid",
        title="Reviewer",
        prompt="Review the diff",
        parts=[Part(kind="text", text="Looked at it.")],
        reply="Looks good.",
    )
    parts = [
        Part(kind="compaction", compaction=Compaction(id="c", status="completed", summary="kept")),
        Part(kind="subagent", subagent=child),
        Part(kind="plan", plan_id="p", text="1. read\n2. write"),
        Part(kind="plan", plan_id="gone", text="old", removed=True),
    ]
    assert [markdown._part(p) for p in parts] == [
        "*Context compacted*\n\n> kept",
        "**Sub-agent** · Reviewer\n\n> Review the diff\n\nLooked at it.\n\nLooks good.",
        "> **Plan**\n>\n> 1. read\n> 2. write",
        "",
    ]
    html = [html_part(p) for p in parts]
    assert "<details><summary>Context compacted</summary>" in html[0]
    assert "Reviewer" in html[1] and "Looks good." in html[1] and "Looked at it." in html[1]
    assert "<strong>Plan</strong>" in html[2] and html[3] == ""
