"""A conversation as one self-contained HTML file: inline CSS (light and dark through
prefers-color-scheme), no script, no outside resource, and a Content-Security-Policy that allows
none of them anyway.

Agents' and the person's text is Markdown, rendered here by markdown-it-py with raw HTML turned
off (a `<script>` or an `<img onerror>` in a message comes out as escaped text), no images (they
would be outside resources), and links kept only to http, https and mailto (any other link stays
its source text). Everything else written here is escaped."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html import escape

from markdown_it import MarkdownIt

from app.channels.export import labels
from app.channels.export.markdown import plan_markdown, status_word, strip_ansi, unified_diff
from app.i18n import _
from app.models.conversation import Channel, Diff, Message, Part, ToolCall

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
LINK_SCHEMES = ("http:", "https:", "mailto:")

STYLE = """
:root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fff; --muted: #6e6e73; --line: #d2d2d7;
  --code: #f5f5f7; --add: #e6ffec; --del: #ffebe9; --error: #b3261e; --accent: #0b63ce; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8ed; --bg: #1c1c1e; --muted: #98989d; --line: #3a3a3c; --code: #2c2c2e;
    --add: #12361f; --del: #4a1c1c; --error: #ff8a80; --accent: #6cb4ff; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  max-width: 52em; margin: 2em auto; padding: 0 1em; }
header.document { border-bottom: 1px solid var(--line); margin-bottom: 1em; }
.meta, time, .system { color: var(--muted); }
article { border-bottom: 1px solid var(--line); padding: .6em 0; overflow-wrap: anywhere; }
article > header { font-weight: 600; } time { font-weight: normal; margin-left: .5em; }
pre, code { background: var(--code); border-radius: 4px; font: 13px ui-monospace, monospace; }
pre { padding: .6em; overflow-x: auto; white-space: pre-wrap; } code { padding: 0 .2em; }
pre code { padding: 0; background: none; }
.add { background: var(--add); display: block; } .del { background: var(--del); display: block; }
details { border-left: 3px solid var(--line); padding-left: .8em; color: var(--muted); }
.error { color: var(--error); } a { color: var(--accent); }
ul.plan { list-style: none; padding-left: .5em; }
table { border-collapse: collapse; } td, th { border: 1px solid var(--line); padding: .2em .5em; }
blockquote { border-left: 3px solid var(--line); margin-left: 0; padding-left: .8em; }
"""


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.disable("image")  # an image would load from outside (and the CSP would block it)
    md.validateLink = _safe_link  # type: ignore[method-assign]
    return md


def _safe_link(url: str) -> bool:
    return url.strip().lower().startswith(LINK_SCHEMES)


_MARKDOWN = _renderer()


def render_markdown(text: str) -> str:
    """Markdown as HTML with raw HTML escaped, no images, and safe links only."""
    return str(_MARKDOWN.render(text))


def document(channel: Channel, messages: Iterable[Message]) -> Iterator[str]:
    title = escape(labels.title(channel))
    yield (
        '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'<header class="document"><h1>{title}</h1>\n'
    )
    if channel.description:
        yield f"<p>{escape(channel.description)}</p>\n"
    yield f'<p class="meta">{escape(labels.exported_on())}</p></header>\n<main>\n'
    for message in messages:
        yield article(message)
    yield "</main>\n</body>\n</html>\n"


def article(message: Message) -> str:
    author = escape(labels.author(message))
    when = escape(labels.when(message.created_at))
    stamp = escape(message.created_at)
    head = f'<header>{author}<time datetime="{stamp}">{when}</time></header>\n'
    return f'<article class="{message.role}">\n{head}{body(message)}</article>\n'


def body(message: Message) -> str:
    if message.role == "system":
        return f'<p class="system"><em>{escape(labels.system_line(message))}</em></p>\n'
    blocks = [_part(part) for part in message.parts]
    if message.attachments:
        names = ", ".join(f"<code>{escape(a.name)}</code>" for a in message.attachments)
        blocks.append(f"<p>{escape(_('Attached: {names}')).format(names=names)}</p>\n")
    if message.error:
        blocks.append(
            f'<p class="error"><strong>{escape(_("Error:"))}</strong> {escape(message.error)}</p>\n'
        )
    if note := labels.stop_note(message):
        blocks.append(f'<p class="system"><em>{escape(note)}</em></p>\n')
    return "".join(blocks)


def _part(part: Part) -> str:
    if part.kind == "text":
        return render_markdown(part.text)
    if part.kind == "thought" and part.text.strip():
        summary = escape(_("Thought"))
        return f"<details><summary>{summary}</summary>\n{render_markdown(part.text)}</details>\n"
    if part.kind == "tool" and part.tool is not None:
        return tool_html(part.tool)
    if part.kind == "plan" and part.plan and not part.removed:
        rendered = render_markdown(plan_markdown(part.plan)).replace("<ul>", '<ul class="plan">', 1)
        return rendered.replace("<li>[x] ", "<li>☑ ").replace("<li>[ ] ", "<li>☐ ")
    if part.kind == "plan" and not part.removed and (part.text.strip() or part.plan_uri):
        body = (
            render_markdown(part.text) if part.text.strip() else f"<p>{escape(part.plan_uri)}</p>"
        )
        return f'<div class="plan"><p><strong>{escape(_("Plan"))}</strong></p>\n{body}</div>\n'
    if part.kind == "compaction" and part.compaction is not None:
        summary = escape(_("Context compacted"))
        kept = render_markdown(part.compaction.summary)
        return f"<details><summary>{summary}</summary>\n{kept}</details>\n"
    if part.kind == "subagent" and part.subagent is not None:
        child = part.subagent
        title = escape(child.title or child.description or child.session_id)
        inner = "".join(_part(p) for p in child.parts)
        prompt = render_markdown(child.prompt) if child.prompt.strip() else ""
        reply = render_markdown(child.reply) if child.reply.strip() else ""
        head = f"<p><strong>{escape(_('Sub-agent'))}</strong> · {title}</p>\n"
        return f'<div class="subagent">{head}{prompt}{inner}{reply}</div>\n'
    return ""


def tool_html(tool: ToolCall) -> str:
    title = escape(tool.title) if tool.title else escape(_("(untitled)"))
    line = f"<strong>{escape(_('Tool call'))}</strong> · {escape(tool.kind)} · {title}"
    blocks = [f'<p class="tool">{line} · {escape(status_word(tool.status))}</p>\n']
    blocks.extend(_diff_html(diff) for diff in tool.diffs)
    for terminal in tool.terminals:
        text = f"$ {terminal.command}\n{strip_ansi(terminal.output)}".rstrip("\n")
        blocks.append(f'<pre class="console"><code>{escape(text)}</code></pre>\n')
        if terminal.exit_code is not None:
            blocks.append(
                f"<p>{escape(_('Exit code: {code}').format(code=terminal.exit_code))}</p>\n"
            )
    if tool.output.strip() and not tool.terminals:
        blocks.append(f"<pre><code>{escape(strip_ansi(tool.output).strip())}</code></pre>\n")
    return "".join(blocks)


def _diff_html(diff: Diff) -> str:
    lines = unified_diff(diff).split("\n")
    rows = []
    for line in lines:
        kind = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        if line.startswith(("+++", "---")):
            kind = ""
        text = escape(line)
        rows.append(f'<span class="{kind}">{text}</span>' if kind else text)
    return f'<pre class="diff"><code>{chr(10).join(rows)}</code></pre>\n'
