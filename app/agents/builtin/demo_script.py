"""What the demo agent says and does: its slash commands and its scripted turns. No model anywhere.

A normal prompt gets the full show, in this order: a thought, a plan whose three steps progress
from pending to completed, tool calls (read, search, edit after asking permission, execute),
then a Markdown answer. The caller adds the usage report.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from typing import Literal

from acp import (
    RequestError,
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    update_plan,
    update_tool_call,
)
from acp.helpers import update_available_commands
from acp.schema import (
    AgentPlanUpdate,
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    ContentToolCallContent,
    DeniedOutcome,
    PermissionOption,
    PlanEntryStatus,
    StopReason,
    ToolCallLocation,
    ToolCallUpdate,
    UnstructuredCommandInput,
)

from app.agents.builtin.demo_settings import status_text
from app.agents.builtin.demo_store import SessionRecord
from app.agents.builtin.demo_stream import Stream

log = logging.getLogger("sidekicks.demo")

HONESTY = "I'm the Sidekicks demo agent: I call no model, need no key and work offline."


@dataclass(frozen=True)
class Command:
    name: str
    description: str
    hint: str | None = None


COMMANDS = (
    Command("help", "List the demo agent's commands"),
    Command("echo", "Answer exactly the given text", "text to repeat"),
    Command("bench", "Stream that many text chunks as fast as possible", "number of chunks"),
    Command("plan", "Show only a plan progressing step by step"),
    Command("edit", "Show only the permission request and the edit"),
    Command("status", "Say this session's mode and model"),
)


def available_commands() -> AvailableCommandsUpdate:
    return update_available_commands(
        AvailableCommand(
            name=command.name,
            description=command.description,
            input=AvailableCommandInput(root=UnstructuredCommandInput(hint=command.hint))
            if command.hint
            else None,
        )
        for command in COMMANDS
    )


@dataclass(frozen=True)
class Reply:
    stop_reason: StopReason
    reports_usage: bool = False


async def play(stream: Stream, session: SessionRecord, text: str, ignored: list[str]) -> Reply:
    """Answers one prompt: `text` is its text, `ignored` the kinds of its other blocks."""
    command = parse_command(text)
    if command is not None:
        return await run_command(stream, session, *command)
    if not text.strip():
        await stream.say(no_text_answer(ignored))
        return Reply("end_turn")
    stop_reason = await full_turn(stream, session, text, ignored)
    return Reply(stop_reason, reports_usage=stop_reason == "end_turn")


_COMMAND = re.compile(r"/(\S*)(?:\s(.*))?", re.DOTALL)


def parse_command(text: str) -> tuple[str, str] | None:
    """`/name argument…` → (name, argument); the one space after the name is not the argument's."""
    match = _COMMAND.fullmatch(text.lstrip())
    if match is None:
        return None
    return match.group(1).lower(), match.group(2) or ""


async def run_command(stream: Stream, session: SessionRecord, name: str, argument: str) -> Reply:
    if name == "help":
        await stream.say(help_text(session))
    elif name == "echo":
        await stream.say(argument or "Usage: `/echo text to repeat`")
    elif name == "bench":
        await bench(stream, argument)
    elif name == "plan":
        for stage in range(len(PLAN_PROGRESS)):
            await stream.step(plan_update(stage))
    elif name == "edit":
        if await edit_flow(stream, session) == "cancelled":
            return Reply("cancelled")
    elif name == "status":
        await stream.say(status_text(session))
    else:
        shown = f"`/{name}`" if name else "A lone `/`"
        await stream.say(f"Sorry, {shown} is not one of my commands. Type `/help` to see them.")
    return Reply("end_turn")


def help_text(session: SessionRecord) -> str:
    lines = [
        "## Sidekicks demo agent",
        "",
        f"{HONESTY} Every answer is scripted to show what an ACP agent can send.",
        "",
        "Commands:",
        "",
    ]
    for command in COMMANDS:
        usage = f"/{command.name} {command.hint}" if command.hint else f"/{command.name}"
        lines.append(f"- `{usage}`: {command.description.lower()}")
    lines += [
        "",
        "Anything else gets the full demo: a thought, a plan, tool calls (read, search, edit,"
        " execute), a Markdown answer and a usage report.",
        "",
    ]
    if session.mcp_servers:
        names = ", ".join(f"`{name}`" for name in session.mcp_servers)
        lines.append(f"MCP servers given to this session (accepted, never launched): {names}.")
    else:
        lines.append("No MCP servers were given to this session.")
    return "\n".join(lines) + "\n"


BENCH_MAX = 1_000_000


async def bench(stream: Stream, argument: str) -> None:
    digits = argument.strip()
    # isdecimal, not isdigit: int() rejects "²". The length check spares int() a huge number.
    count = int(digits) if digits.isdecimal() and len(digits) <= len(str(BENCH_MAX)) else 0
    if not 1 <= count <= BENCH_MAX:
        await stream.say(f"Usage: `/bench number of chunks`, a whole number from 1 to {BENCH_MAX}.")
        return
    await stream.burst(f"chunk {index} " for index in range(1, count + 1))
    # The session remembers a summary: replaying a benchmark's megabytes on load helps nobody.
    stream.remember(f"(/bench: streamed {count} chunks)")


def no_text_answer(ignored: list[str]) -> str:
    received = f"I received {', '.join(ignored)}" if ignored else "your message was empty"
    return (
        f"{HONESTY} I only read text, and {received}: there is nothing I can answer."
        " Please type a question, or `/help`."
    )


# --- The full show -----------------------------------------------------------------------------

PLAN_STEPS = (
    "Read the project's README",
    "Search for the function to improve",
    "Edit it, then run the tests",
)
P: PlanEntryStatus = "pending"
R: PlanEntryStatus = "in_progress"
C: PlanEntryStatus = "completed"
PLAN_PROGRESS: tuple[tuple[PlanEntryStatus, ...], ...] = (
    (P, P, P),
    (R, P, P),
    (C, R, P),
    (C, C, R),
    (C, C, C),
)

DEMO_FILE = "sidekicks_demo.py"
OLD_CODE = 'def greet(name):\n    return "Hello " + name\n'
NEW_CODE = 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n'

EditOutcome = Literal["allowed", "always", "rejected", "cancelled"]
PERMISSION_OPTIONS = [
    PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
    PermissionOption(option_id="allow-always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
]
_CHOSEN: dict[str, EditOutcome] = {"allow": "allowed", "allow-always": "always"}


async def full_turn(
    stream: Stream, session: SessionRecord, text: str, ignored: list[str]
) -> StopReason:
    await stream.think(thought(text, ignored))
    await stream.step(plan_update(0))
    await stream.step(plan_update(1))
    await read_tool(stream, session)
    await stream.step(plan_update(2))
    await search_tool(stream, session)
    await stream.step(plan_update(3))
    edit = await edit_flow(stream, session)
    if edit == "cancelled":
        return "cancelled"
    await execute_tool(stream, session)
    await stream.step(plan_update(4))
    await stream.say(markdown_answer(text, edit))
    return "end_turn"


def thought(text: str, ignored: list[str]) -> str:
    words = len(text.split())
    extra = f" It also had {', '.join(ignored)}, which I cannot look at." if ignored else ""
    return (
        f"The message has {words} word{'s' if words != 1 else ''}.{extra} No model runs here,"
        " so this reasoning is scripted: I will make a plan, read, search, edit (after asking"
        " permission) and run the tests, then answer in Markdown."
    )


def plan_update(stage: int) -> AgentPlanUpdate:
    statuses = PLAN_PROGRESS[stage]
    return update_plan(
        plan_entry(step, priority="high" if index == 0 else "medium", status=status)
        for index, (step, status) in enumerate(zip(PLAN_STEPS, statuses, strict=True))
    )


def call_id(session: SessionRecord, kind: str) -> str:
    # Unique within the session: the turn being played is the one after those remembered.
    return f"{kind}-{len(session.turns) + 1}"


def project_file(session: SessionRecord, name: str) -> str:
    return os.path.join(session.cwd, name)


def text_content(text: str) -> ContentToolCallContent:
    return tool_content(text_block(text))


async def read_tool(stream: Stream, session: SessionRecord) -> None:
    call, path = call_id(session, "read"), project_file(session, "README.md")
    where = [ToolCallLocation(path=path, line=1)]
    await stream.step(
        start_tool_call(
            call, "Read README.md", kind="read", status="in_progress", locations=where,
            raw_input={"path": path},
        )
    )  # fmt: skip
    excerpt = "# My project\n\nA tiny example. (Simulated: the demo reads none of your files.)"
    await stream.step(
        update_tool_call(call, status="completed", content=[text_content(excerpt)], locations=where)
    )


async def search_tool(stream: Stream, session: SessionRecord) -> None:
    call, path = call_id(session, "search"), project_file(session, DEMO_FILE)
    await stream.step(
        start_tool_call(
            call, "Search for “def greet”", kind="search", status="in_progress",
            raw_input={"query": "def greet", "path": session.cwd},
        )
    )  # fmt: skip
    found = f"{DEMO_FILE}:1: def greet(name):\n(Simulated: nothing was searched.)"
    await stream.step(
        update_tool_call(
            call, status="completed", content=[text_content(found)],
            locations=[ToolCallLocation(path=path, line=1)],
        )
    )  # fmt: skip


async def edit_flow(stream: Stream, session: SessionRecord) -> EditOutcome:
    """Proposes an edit, asks permission first, and honours the answer."""
    call, path = call_id(session, "edit"), project_file(session, DEMO_FILE)
    title = f"Edit {DEMO_FILE}"
    diff = tool_diff_content(path, NEW_CODE, OLD_CODE)
    where = [ToolCallLocation(path=path, line=1)]
    await stream.step(
        start_tool_call(
            call, title, kind="edit", status="pending", content=[diff], locations=where,
            raw_input={"path": path},
        )
    )  # fmt: skip
    request = ToolCallUpdate(
        tool_call_id=call,
        title=title,
        kind="edit",
        status="pending",
        content=[diff],
        locations=where,
    )
    outcome = await ask_permission(stream, session, request)
    if outcome == "rejected":
        skipped = "Edit skipped: permission was rejected. (Nothing would have been written anyway.)"
        await stream.step(update_tool_call(call, status="failed", content=[text_content(skipped)]))
    elif outcome != "cancelled":
        await stream.step(update_tool_call(call, status="completed", content=[diff]))
    return outcome


async def ask_permission(
    stream: Stream, session: SessionRecord, tool_call: ToolCallUpdate
) -> EditOutcome:
    if session.always_allow_edits:
        return "always"
    try:
        response = await stream.client.request_permission(
            session_id=stream.session_id, tool_call=tool_call, options=PERMISSION_OPTIONS
        )
    except RequestError as err:
        log.warning("the client could not ask for permission (%s): the edit is skipped", err)
        return "rejected"
    if isinstance(response.outcome, DeniedOutcome):  # the client cancelled the turn
        return "cancelled"
    # Anything but an allow option, even an id we never offered, is a no: an edit needs a yes.
    outcome = _CHOSEN.get(response.outcome.option_id, "rejected")
    if outcome == "always":
        session.always_allow_edits = True
    return outcome


async def execute_tool(stream: Stream, session: SessionRecord) -> None:
    call = call_id(session, "execute")
    await stream.step(
        start_tool_call(
            call, "Run the tests", kind="execute", status="in_progress",
            raw_input={"command": "python -m pytest -q", "cwd": session.cwd},
        )
    )  # fmt: skip
    output = "3 passed in 0.02s\n(Simulated: the demo runs no command.)"
    await stream.step(
        update_tool_call(
            call, status="completed", content=[text_content(output)], raw_output={"exitCode": 0}
        )
    )


QUOTE_LIMIT = 400

EDIT_SENTENCES: dict[EditOutcome, str] = {
    "allowed": f"You allowed the edit, so `{DEMO_FILE}` is shown as changed",
    "always": f"Edits are always allowed in this session, so `{DEMO_FILE}` is shown as changed",
    "rejected": "You rejected the edit, so it was skipped",
}


def markdown_answer(text: str, edit: EditOutcome) -> str:
    return f"""## Demo answer

You asked:

{quote(text)}

{HONESTY} So this answer is scripted, to show every kind of message an ACP agent can send:

- a **thought**, the reasoning shown above;
- a **plan** whose steps went from pending to completed;
- **tool calls**: read, search, edit (after asking your permission) and execute;
- this **Markdown** answer, streamed a few words at a time.

{EDIT_SENTENCES[edit]} (the demo never writes to your disk). Here is the new code:

```python
{NEW_CODE}

print(greet("Sidekicks"))
```

Type `/help` to see my commands.
"""


def quote(text: str) -> str:
    """`text` as a Markdown blockquote; a long prompt is cut to its end, where the question is."""
    text = text.strip()
    if len(text) > QUOTE_LIMIT:
        text = "…" + text[-QUOTE_LIMIT:]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())
