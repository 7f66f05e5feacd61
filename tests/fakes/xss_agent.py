"""A hostile ACP agent for the UI's security test: raw JSON-RPC on stdio, like fake_agent.py.

    python tests/fakes/xss_agent.py

Every prompt is answered with a corpus of XSS payloads in every place an agent controls: Markdown
text and raw HTML, a thought, a tool call (title, input, output, locations, a diff), a plan, a
permission request (title and option names), its slash commands, then `end_turn`. Each payload
tries to set `window.__pwned = true` AND to call `window.pywebview.api.ConfigService.Save("pwned")`
(which would rewrite the configuration: with an agent's `command`, that is code execution).

`PAYLOADS` is importable: the test checks their text reached the page, as text.
"""

from __future__ import annotations

import base64
import sys
import threading
import time
from typing import Any

import rpc
from rpc import answered, chunk, request, send, update  # tests/fakes/rpc.py, beside this file

JS = "window.__pwned=true;window.pywebview.api.ConfigService.Save('pwned')"
PARENT_JS = "parent.__pwned=true;parent.pywebview.api.ConfigService.Save('pwned')"
DATA_HTML = base64.b64encode(f"<script>{PARENT_JS}</script>".encode()).decode()
ENTITIES = "".join(f"&#{ord(c)};" for c in f"javascript:{JS}")

PAYLOADS = [
    f"<script>{JS}</script>",
    f'<img src=x onerror="{JS}">',
    f"<img src=`x`onerror={JS}>",
    f"[markdown js link](javascript:{JS})",
    f"[markdown data link](data:text/html;base64,{DATA_HTML})",
    f"![markdown js image](javascript:{JS})",
    f"<javascript:{JS}>",
    f"[reference link][evil]\n\n[evil]: javascript:{JS}",
    f'<a href="javascript:{JS}">html js link</a>',
    f'<a href="JaVaScRiPt&colon;{JS}">entity colon link</a>',
    f'<a href="{ENTITIES}">entity encoded link</a>',
    f'<a href=" \tjavascript:{JS}">spaced js link</a>',
    f'<a href="vbscript:{JS}">vbscript link</a>',
    f'<a href="data:text/html;base64,{DATA_HTML}">html data link</a>',
    f'<a href="https://example.com/" onclick="{JS}" onmouseover="{JS}">link with handlers</a>',
    f'<svg onload="{JS}"><circle r="5"/></svg>',
    f"<svg><script>{JS}</script></svg>",
    f'<svg><animate onbegin="{JS}" attributeName="x" dur="1s"/></svg>',
    f'<iframe srcdoc="<script>{PARENT_JS}</script>"></iframe>',
    f'<iframe src="javascript:{PARENT_JS}"></iframe>',
    f'<object data="javascript:{JS}"></object>',
    f'<object data="data:text/html;base64,{DATA_HTML}"></object>',
    f'<embed src="javascript:{JS}">',
    f"<style>@import 'javascript:{JS}'; body {{ display: none }}</style>",
    f'<div style="background:url(javascript:{JS}); position:fixed; inset:0">styled overlay</div>',
    f'<div onmouseover="{JS}" onclick="{JS}" onfocus="{JS}" tabindex="0">hover me</div>',
    f'<details open ontoggle="{JS}"><summary>toggle me</summary>details body</details>',
    f'<input autofocus onfocus="{JS}" value="input">',
    f'<body onload="{JS}">body</body>',
    f'<video><source onerror="{JS}"></video><audio src=x onerror="{JS}"></audio>',
    f'<form action="javascript:{JS}"><button formaction="javascript:{JS}">submit</button></form>',
    f'<base href="javascript:{JS}//"><meta http-equiv="refresh" content="0;url=javascript:{JS}">',
    f"<template><script>{JS}</script></template>",
    f'<math><mtext><table><mglyph><style><img src=x onerror="{JS}">',
    f'<noscript><p title="</noscript><img src=x onerror={JS}>"></noscript>',
    '<form><math><mtext></form><form><mglyph><svg><mtext><textarea><path id="</textarea>'
    f'<img onerror={JS} src=1>"></textarea></mtext></svg></mglyph></form></mtext></math></form>',
    '<div id="app">clobbering</div><form name="pywebview"><input name="api"></form>',
    '<a href="https://example.com/" class="btn primary" id="send">fake app button</a>',
    f"```html\n<script>{JS}</script>\n```",
    f"`<img src=x onerror={JS}>`",
]

HTML = f'<img src=x onerror="{JS}">'


def hostile_tool(call_id: str, status: str) -> dict[str, Any]:
    return {
        "toolCallId": call_id,
        "title": f"{HTML} tool <b>title</b>",
        "kind": "edit",
        "status": status,
        "rawInput": {"command": f"<script>{JS}</script>", "path": HTML},
        "locations": [{"path": f'<svg onload="{JS}">.py', "line": 1}],
        "content": [
            {"type": "content", "content": {"type": "text", "text": f"<script>{JS}</script>"}},
            {
                "type": "diff",
                "path": f"{HTML}.py",
                "oldText": f"<script>{JS}</script>\n",
                "newText": f"{HTML}\n<iframe srcdoc=x></iframe>\n",
            },
        ],
    }


def handle_prompt(rid: int, params: dict[str, Any]) -> None:
    sid = params["sessionId"]
    update(sid, {"sessionUpdate": "plan", "entries": [
        {"content": f"{HTML} plan step", "status": "in_progress", "priority": "high"},
        {"content": f"<script>{JS}</script>", "status": "pending", "priority": "low"},
    ]})  # fmt: skip
    update(sid, {"sessionUpdate": "tool_call", **hostile_tool("evil-1", "in_progress")})
    update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": "evil-1",
                 "status": "completed", "rawOutput": f"<script>{JS}</script>"})  # fmt: skip
    answer = request("session/request_permission", {
        "sessionId": sid,
        "toolCall": {"toolCallId": "evil-2", "title": f"{HTML} permission <i>title</i>",
                     "kind": "execute", "status": "pending"},
        "options": [
            {"optionId": "allow", "name": f'<b onmouseover="{JS}">Allow</b>', "kind": "allow_once"},
            {"optionId": "reject", "name": f"<script>{JS}</script>", "kind": "reject_once"},
        ],
    })  # fmt: skip
    outcome = answer.get("result", {}).get("outcome", {})
    chunk(sid, f"permission: {outcome.get('optionId', outcome.get('outcome', '?'))}\n\n")
    # Each payload in a part of its own (a thought between two texts starts a new text part):
    # one that swallows what follows it (an unclosed <math>…) cannot hide the others.
    for payload in PAYLOADS:
        chunk(sid, payload)
        chunk(sid, payload, "agent_thought_chunk")
        time.sleep(0.002)
    update(sid, {"sessionUpdate": "usage_update", "used": 10, "size": 100})
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if answered(message):
        return
    if method == "initialize":
        send({"id": rid, "result": {"protocolVersion": 1, "agentCapabilities": {},
                                    "agentInfo": {"name": "xss", "version": "0"}}})  # fmt: skip
    elif method == "session/new":
        sid = f"xss-session-{time.monotonic_ns()}"
        send({"id": rid, "result": {"sessionId": sid}})
        update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": [
            {"name": "evil", "description": f"<script>{JS}</script>", "input": {"hint": HTML}},
        ]})  # fmt: skip
    elif method == "session/prompt":
        threading.Thread(target=handle_prompt, args=(rid, params), daemon=True).start()
    elif method == "session/cancel":
        pass
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    sys.stderr.write(f"<script>{JS}</script> xss agent ready\n")  # logs are shown too
    sys.stderr.flush()
    rpc.serve(handle)


if __name__ == "__main__":
    main()
