"""The built-in demo agent, run as a real process and driven through the ACP SDK's client side."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest
from acp import RequestError, connect_to_agent, image_block, text_block
from acp.core import ClientSideConnection
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AllowedOutcome,
    AvailableCommandsUpdate,
    ClientCapabilities,
    DeniedOutcome,
    FileEditToolCallContent,
    HttpMcpServer,
    Implementation,
    McpServerStdio,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UsageUpdate,
    UserMessageChunk,
)

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 15.0
# The brief asks for ~100 ms; the bound leaves room for a loaded CI machine (a few ms is typical).
PROMPT_CANCEL = 0.5


@dataclass
class Asked:
    """A permission request, recorded among the updates so that its place in the turn shows."""

    tool_call: ToolCallUpdate
    options: list[PermissionOption]


class RecordingClient:
    """The client side: records every update in arrival order, answers permission requests.

    `outcome` is the option id to select, "cancelled", or "wait" (the answer stays pending until
    the test gives one through `answer`).
    """

    def __init__(self, outcome: str = "allow") -> None:
        self.outcome = outcome
        self.log: list[tuple[str, Any]] = []  # (session id, update or Asked)
        self._changed = asyncio.Event()
        self._answer: asyncio.Future[RequestPermissionResponse] | None = None

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        # Recorded before any await: the SDK runs each message in its own task.
        self.log.append((session_id, update))
        self._changed.set()

    async def request_permission(
        self,
        session_id: str,
        tool_call: ToolCallUpdate,
        options: list[PermissionOption],
        **kwargs: Any,
    ) -> RequestPermissionResponse:
        self.log.append((session_id, Asked(tool_call, options)))
        self._changed.set()
        if self.outcome == "wait":
            self._answer = asyncio.get_running_loop().create_future()
            return await self._answer
        if self.outcome == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.outcome)
        )

    def answer(self, response: RequestPermissionResponse) -> None:
        assert self._answer is not None
        self._answer.set_result(response)

    def of(self, session_id: str, since: int = 0) -> list[Any]:
        return [entry for sid, entry in self.log[since:] if sid == session_id]

    async def until(self, condition: Callable[[], object], what: str) -> None:
        """Waits for `condition`, re-checked at each recorded message; fails after TIMEOUT."""
        try:
            async with asyncio.timeout(TIMEOUT):
                while not condition():
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"timed out after {TIMEOUT}s waiting for {what}") from None


class DemoProcess:
    def __init__(
        self,
        proc: asyncio.subprocess.Process,
        conn: ClientSideConnection,
        client: RecordingClient,
        stderr: Path,
    ) -> None:
        self.proc = proc
        self.conn = conn
        self.client = client
        self.stderr = stderr

    async def initialize(self, version: int = 1) -> Any:
        return await asyncio.wait_for(
            self.conn.initialize(
                protocol_version=version,
                client_capabilities=ClientCapabilities(),
                client_info=Implementation(name="tests", version="0"),
            ),
            TIMEOUT,
        )

    async def new_session(self, cwd: str = "/tmp/project", mcp_servers: Any = None) -> str:
        """A new session, once its commands are announced: they come just after its id, and a
        prompt's updates are told apart by arriving after the prompt is sent."""
        response = await asyncio.wait_for(
            self.conn.new_session(cwd=cwd, mcp_servers=mcp_servers or []), TIMEOUT
        )
        session_id = str(response.session_id)
        await self.client.until(lambda: self.commands(session_id), "the commands")
        return session_id

    def commands(self, session_id: str) -> list[AvailableCommandsUpdate]:
        return [u for u in self.client.of(session_id) if isinstance(u, AvailableCommandsUpdate)]

    async def prompt(self, session_id: str, *blocks: Any) -> tuple[str, list[Any]]:
        """Sends a prompt (a str is a text block); returns its stop reason and its updates."""
        mark = len(self.client.log)
        prompt = [text_block(b) if isinstance(b, str) else b for b in blocks]
        response = await asyncio.wait_for(
            self.conn.prompt(session_id=session_id, prompt=prompt), TIMEOUT
        )
        return response.stop_reason, self.client.of(session_id, mark)

    async def close_stdin(self) -> int:
        """Closes the agent's stdin and returns its exit code."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return await asyncio.wait_for(self.proc.wait(), TIMEOUT)


class DemoAgents:
    """Starts real demo agent processes and makes sure each one is reaped."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.sessions = tmp_path / "sessions"
        self.processes: list[asyncio.subprocess.Process] = []
        self.connections: list[ClientSideConnection] = []
        self._stderr_files: list[IO[bytes]] = []

    def run(self, scenario: Callable[[], Awaitable[None]]) -> None:
        asyncio.run(self._run(scenario))

    async def start(self, *, delay: float = 0.0, outcome: str = "allow") -> DemoProcess:
        """A started and initialized demo agent."""
        agent = await self.spawn(delay=delay, outcome=outcome)
        await agent.initialize()
        return agent

    async def spawn(
        self,
        *,
        delay: float = 0.0,
        outcome: str = "allow",
        env: dict[str, str | None] | None = None,
    ) -> DemoProcess:
        """A started demo agent with the SDK's client side on its pipes, not yet initialized."""
        proc, stderr = await self.spawn_process(delay=delay, env=env)
        assert proc.stdin is not None
        assert proc.stdout is not None
        client = RecordingClient(outcome)
        conn = connect_to_agent(client, proc.stdin, proc.stdout)  # type: ignore[arg-type]
        self.connections.append(conn)
        return DemoProcess(proc, conn, client, stderr)

    async def spawn_process(
        self, *, delay: float = 0.0, env: dict[str, str | None] | None = None
    ) -> tuple[asyncio.subprocess.Process, Path]:
        """The bare process and its stderr file; `env` values of None are removed."""
        full_env: dict[str, str | None] = dict(os.environ)
        full_env |= {
            "SIDEKICKS_DEMO_DELAY": str(delay),
            "SIDEKICKS_DEMO_SESSIONS": str(self.sessions),
        }
        full_env |= env or {}
        stderr = self.tmp_path / f"demo-{len(self.processes)}.stderr"
        stderr_file = stderr.open("wb")  # a file never fills up like an undrained pipe would
        self._stderr_files.append(stderr_file)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "app", "--agent", "demo",
            cwd=ROOT, env={k: v for k, v in full_env.items() if v is not None},
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr_file,
            limit=64 * 1024 * 1024,
        )  # fmt: skip
        self.processes.append(proc)
        return proc, stderr

    async def _run(self, scenario: Callable[[], Awaitable[None]]) -> None:
        try:
            await scenario()
        finally:
            for proc in self.processes:
                if proc.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        proc.kill()
                await asyncio.wait_for(proc.wait(), TIMEOUT)
            for conn in self.connections:
                # Its sender may have failed on the closed pipe already: that is no news here.
                with contextlib.suppress(ConnectionError):
                    await conn.close()

    def kill_leftovers(self) -> None:
        """Last resort, outside the event loop: SIGKILL any process the scenario did not reap."""
        for proc in self.processes:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    # (os.kill with SIGTERM is TerminateProcess on Windows, which has no SIGKILL)
                    os.kill(proc.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        for stderr_file in self._stderr_files:
            stderr_file.close()


@pytest.fixture
def agents(tmp_path: Path) -> Iterator[DemoAgents]:
    agents = DemoAgents(tmp_path)
    yield agents
    agents.kill_leftovers()


# --- Reading the updates ---------------------------------------------------------------------


def text_of(updates: list[Any], kind: type = AgentMessageChunk) -> str:
    return "".join(u.content.text for u in updates if isinstance(u, kind))


def plan_statuses(update: AgentPlanUpdate) -> str:
    letters = {"pending": "P", "in_progress": "R", "completed": "C"}
    return "".join(letters[entry.status] for entry in update.entries)


def outline(updates: list[Any]) -> list[str]:
    """One label per update, consecutive text (or thought) chunks merged into one label."""
    kinds: dict[str, str] = {}
    labels: list[str] = []
    for update in updates:
        if isinstance(update, AgentThoughtChunk | AgentMessageChunk):
            label = "thought" if isinstance(update, AgentThoughtChunk) else "text"
            if labels and labels[-1] == label:
                continue
        elif isinstance(update, AgentPlanUpdate):
            label = f"plan {plan_statuses(update)}"
        elif isinstance(update, ToolCallStart):
            kinds[update.tool_call_id] = str(update.kind)
            label = f"{update.kind} {update.status}"
        elif isinstance(update, ToolCallProgress):
            label = f"{kinds[update.tool_call_id]} {update.status}"
        elif isinstance(update, Asked):
            label = f"permission for {kinds[update.tool_call.tool_call_id]}"
        elif isinstance(update, UsageUpdate):
            label = "usage"
        else:
            label = type(update).__name__
        labels.append(label)
    return labels


def tool_update(updates: list[Any], kind: str) -> ToolCallProgress:
    start = next(u for u in updates if isinstance(u, ToolCallStart) and u.kind == kind)
    return next(
        u
        for u in updates
        if isinstance(u, ToolCallProgress) and u.tool_call_id == start.tool_call_id
    )


FULL_TURN = [
    "thought",
    "plan PPP",
    "plan RPP",
    "read in_progress",
    "read completed",
    "plan CRP",
    "search in_progress",
    "search completed",
    "plan CCR",
    "edit pending",
    "permission for edit",
    "edit completed",
    "execute in_progress",
    "execute completed",
    "plan CCC",
    "text",
    "usage",
]


# --- The handshake and the commands ------------------------------------------------------------


def test_initialize_answers_version_1_with_load_session_even_when_asked_another(
    agents: DemoAgents,
) -> None:
    async def scenario() -> None:
        agent = await agents.spawn()
        response = await agent.initialize(version=7)
        assert response.protocol_version == 1
        assert response.agent_info.name == "sidekicks-demo"
        capabilities = response.agent_capabilities
        assert capabilities.load_session is True
        prompts = capabilities.prompt_capabilities
        assert (prompts.image, prompts.audio, prompts.embedded_context) == (False, False, False)

    agents.run(scenario)


def test_a_new_session_announces_the_commands_with_their_hints(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        announced = agent.commands(session)
        assert len(announced) == 1
        commands = announced[0].available_commands
        hints = {c.name: c.input.root.hint if c.input else None for c in commands}
        assert hints == {
            "help": None,
            "echo": "text to repeat",
            "bench": "number of chunks",
            "plan": None,
            "edit": None,
            "status": None,
        }
        assert all(c.description for c in commands)

    agents.run(scenario)


def test_session_ids_are_distinct_and_safe_as_file_names(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        ids = {await agent.new_session() for _ in range(3)}
        assert len(ids) == 3
        for session_id in ids:
            assert (agents.sessions / f"{session_id}.json").is_file()
            assert session_id.replace("-", "").isalnum()

    agents.run(scenario)


# --- The full show -----------------------------------------------------------------------------


def test_a_normal_prompt_streams_every_kind_of_update_in_order(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session(cwd="/tmp/project")
        stop, updates = await agent.prompt(session, "How do I greet someone in Python?")
        assert stop == "end_turn"
        assert outline(updates) == FULL_TURN

        thoughts = [u for u in updates if isinstance(u, AgentThoughtChunk)]
        assert len(thoughts) > 3
        assert "No model runs here" in text_of(updates, AgentThoughtChunk)

        read = tool_update(updates, "read")
        assert read.content[0].content.text
        assert read.locations[0].path == os.path.join("/tmp/project", "README.md")

        edit_start = next(u for u in updates if isinstance(u, ToolCallStart) and u.kind == "edit")
        diff = edit_start.content[0]
        assert isinstance(diff, FileEditToolCallContent)
        assert diff.path == os.path.join("/tmp/project", "sidekicks_demo.py")
        assert diff.old_text and diff.new_text and diff.old_text != diff.new_text

        chunks = [u for u in updates if isinstance(u, AgentMessageChunk)]
        assert len(chunks) > 10
        answer = text_of(updates)
        assert answer.startswith("## ")
        assert "\n- " in answer
        assert "```python\n" in answer
        assert answer.count("```") == 2
        assert "> How do I greet someone in Python?" in answer
        assert "I call no model" in answer

        usage = updates[-1]
        assert usage.size == 200_000
        assert 0 < usage.used < usage.size

    agents.run(scenario)


def test_the_usage_grows_with_each_turn(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        _, first = await agent.prompt(session, "first question")
        _, second = await agent.prompt(session, "second question")
        assert second[-1].used > first[-1].used

    agents.run(scenario)


def test_an_allowed_edit_asks_first_then_completes_with_its_diff(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="allow")
        session = await agent.new_session()
        _, updates = await agent.prompt(session, "Please tidy the greeting")
        asked = [u for u in updates if isinstance(u, Asked)]
        assert len(asked) == 1
        options = {(o.option_id, o.kind, o.name) for o in asked[0].options}
        assert ("allow", "allow_once", "Allow") in options
        assert ("reject", "reject_once", "Reject") in options
        edit = tool_update(updates, "edit")
        assert edit.tool_call_id == asked[0].tool_call.tool_call_id
        assert edit.status == "completed"
        assert isinstance(edit.content[0], FileEditToolCallContent)
        assert "allowed the edit" in text_of(updates)

    agents.run(scenario)


def test_a_rejected_edit_fails_and_the_answer_says_it_was_skipped(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="reject")
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "Please tidy the greeting")
        assert stop == "end_turn"
        assert tool_update(updates, "edit").status == "failed"
        assert "skipped" in tool_update(updates, "edit").content[0].content.text
        assert tool_update(updates, "execute").status == "completed"
        assert "the edit, so it was skipped" in text_of(updates)

    agents.run(scenario)


def test_a_cancelled_permission_answer_ends_the_turn_as_cancelled(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="cancelled")
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "Please tidy the greeting")
        assert stop == "cancelled"
        assert outline(updates)[-2:] == ["edit pending", "permission for edit"]

    agents.run(scenario)


def test_always_allow_is_remembered_and_not_asked_again(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="allow-always")
        session = await agent.new_session()
        _, first = await agent.prompt(session, "one")
        _, second = await agent.prompt(session, "two")
        assert len([u for u in first if isinstance(u, Asked)]) == 1
        assert not [u for u in second if isinstance(u, Asked)]
        assert tool_update(second, "edit").status == "completed"

    agents.run(scenario)


# --- Cancelling --------------------------------------------------------------------------------


def test_cancel_mid_stream_ends_the_turn_quickly_as_cancelled(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(delay=0.05)
        session = await agent.new_session()
        mark = len(agent.client.log)
        turn = asyncio.create_task(agent.prompt(session, "Tell me everything"))

        def streamed() -> bool:
            return any(isinstance(u, AgentThoughtChunk) for u in agent.client.of(session, mark))

        await agent.client.until(streamed, "the first chunk")
        started = time.monotonic()
        await agent.conn.cancel(session_id=session)
        stop, updates = await turn
        assert time.monotonic() - started < PROMPT_CANCEL
        assert stop == "cancelled"
        assert not any(isinstance(u, UsageUpdate) for u in updates)
        saved = json.loads((agents.sessions / f"{session}.json").read_text(encoding="utf-8"))
        assert saved["turns"][-1]["user"] == "Tell me everything"

    agents.run(scenario)


def test_a_second_prompt_while_a_turn_runs_is_refused_clearly(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(delay=0.05)
        session = await agent.new_session()
        turn = asyncio.create_task(agent.prompt(session, "Tell me everything"))
        await agent.client.until(lambda: agent.client.of(session)[1:], "the first update")
        with pytest.raises(RequestError, match="is still answering"):
            await agent.prompt(session, "And this?")
        await agent.conn.cancel(session_id=session)
        assert (await turn)[0] == "cancelled"

    agents.run(scenario)


def test_cancel_while_a_permission_question_waits_ends_the_turn_quickly(
    agents: DemoAgents,
) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="wait")
        session = await agent.new_session()
        turn = asyncio.create_task(agent.prompt(session, "Please tidy the greeting"))

        def asked() -> bool:
            return any(isinstance(u, Asked) for u in agent.client.of(session))

        await agent.client.until(asked, "the permission request")
        started = time.monotonic()
        await agent.conn.cancel(session_id=session)
        stop, _ = await turn
        assert time.monotonic() - started < PROMPT_CANCEL
        assert stop == "cancelled"
        # A client answers the forgotten question "cancelled" afterwards: the agent shrugs it off.
        agent.client.answer(RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled")))
        stop, _ = await agent.prompt(session, "/echo still here")
        assert stop == "end_turn"

    agents.run(scenario)


# --- Commands ----------------------------------------------------------------------------------


def test_echo_answers_exactly_the_text_with_text_chunks_only(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "/echo hello   brave new world, once more!")
        assert stop == "end_turn"
        assert len(updates) > 1
        assert all(isinstance(u, AgentMessageChunk) for u in updates)
        assert text_of(updates) == "hello   brave new world, once more!"

    agents.run(scenario)


def test_bench_streams_exactly_the_requested_chunks_without_waiting(agents: DemoAgents) -> None:
    async def scenario() -> None:
        # A one-second pacing delay would make 1000 chunks take minutes: /bench never waits.
        agent = await agents.start(delay=1.0)
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "/bench 1000")
        assert stop == "end_turn"
        assert len(updates) == 1000
        assert all(isinstance(u, AgentMessageChunk) for u in updates)
        assert updates[16].content.text == "chunk 17 "
        assert updates[-1].content.text == "chunk 1000 "

    agents.run(scenario)


def test_bench_without_a_sensible_number_explains_its_usage(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        for argument in ("", "lots", "²", "0", "9" * 5000):
            stop, updates = await agent.prompt(session, f"/bench {argument}")
            assert stop == "end_turn"
            assert text_of(updates).startswith("Usage: `/bench number of chunks`")

    agents.run(scenario)


def test_plan_shows_only_the_plan_progressing(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "/plan")
        assert stop == "end_turn"
        assert outline(updates) == ["plan PPP", "plan RPP", "plan CRP", "plan CCR", "plan CCC"]

    agents.run(scenario)


def test_edit_shows_only_the_permission_and_edit_flow(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(outcome="reject")
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "/edit")
        assert stop == "end_turn"
        assert outline(updates) == ["edit pending", "permission for edit", "edit failed"]

    agents.run(scenario)


def test_help_lists_the_commands_and_names_the_mcp_servers(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        servers = [
            McpServerStdio(name="files", command="/usr/bin/false", args=[], env=[]),
            HttpMcpServer(type="http", name="web", url="http://127.0.0.1:9/mcp", headers=[]),
        ]
        session = await agent.new_session(mcp_servers=servers)
        _, updates = await agent.prompt(session, "/help")
        answer = text_of(updates)
        for usage in ("/help", "/echo text to repeat", "/bench number of chunks", "/plan", "/edit"):
            assert f"`{usage}`" in answer
        assert "`files`, `web`" in answer
        assert "never launched" in answer
        assert "I call no model" in answer

    agents.run(scenario)


def test_an_unknown_command_gets_a_polite_answer(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, "/frobnicate now")
        assert stop == "end_turn"
        assert "`/frobnicate` is not one of my commands" in text_of(updates)
        assert "`/help`" in text_of(updates)

    agents.run(scenario)


def test_a_prompt_without_text_gets_a_polite_answer(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session()
        stop, updates = await agent.prompt(session, image_block("iVBORw0KGgo=", "image/png"))
        assert stop == "end_turn"
        assert "I received an image" in text_of(updates)
        stop, updates = await agent.prompt(session, "   ")
        assert stop == "end_turn"
        assert "your message was empty" in text_of(updates)

    agents.run(scenario)


# --- Sessions on disk --------------------------------------------------------------------------


def test_load_after_a_restart_replays_the_history_and_the_usage(agents: DemoAgents) -> None:
    async def scenario() -> None:
        first = await agents.start()
        session = await first.new_session(cwd="/tmp/before")
        await first.prompt(session, "/echo first answer")
        _, two = await first.prompt(session, "What now?")
        used = two[-1].used
        assert await first.close_stdin() == 0

        second = await agents.start()
        await asyncio.wait_for(
            second.conn.load_session(cwd="/tmp/after", session_id=session, mcp_servers=[]), TIMEOUT
        )
        # Everything was replayed before the result came back.
        replay = second.client.of(session)
        assert [type(u) for u in replay] == [
            UserMessageChunk, AgentMessageChunk, UserMessageChunk, AgentMessageChunk,
            AvailableCommandsUpdate, UsageUpdate,
        ]  # fmt: skip
        assert replay[0].content.text == "/echo first answer"
        assert replay[1].content.text == "first answer"
        assert replay[2].content.text == "What now?"
        assert replay[3].content.text == text_of(two)
        assert replay[-1].used == used

        _, three = await second.prompt(session, "And then?")
        assert three[-1].used > used
        edit = next(u for u in three if isinstance(u, ToolCallStart) and u.kind == "edit")
        assert edit.locations[0].path.startswith(os.path.join("/tmp/after", ""))

    agents.run(scenario)


def test_session_files_are_whole_json_with_no_temporary_files_left(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        session = await agent.new_session(cwd="/tmp/project")
        await agent.prompt(session, "/echo remembered")
        files = sorted(p.name for p in agents.sessions.iterdir())
        assert files == [f"{session}.json"]
        saved = json.loads((agents.sessions / files[0]).read_text(encoding="utf-8"))
        assert saved["cwd"] == "/tmp/project"
        assert saved["turns"] == [{"user": "/echo remembered", "answer": "remembered"}]

    agents.run(scenario)


def test_sessions_default_to_the_user_config_dir(agents: DemoAgents, user_config_dir: Path) -> None:
    async def scenario() -> None:
        agent = await agents.spawn(env={"SIDEKICKS_DEMO_SESSIONS": None})
        await agent.initialize()
        session = await agent.new_session()
        folder = user_config_dir / "sidekicks" / "builtin" / "demo" / "sessions"
        assert (folder / f"{session}.json").is_file()

    agents.run(scenario)


def test_loading_an_unknown_session_is_a_clear_error(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        unknown = "demo-" + "0" * 32
        with pytest.raises(RequestError) as unknown_error:
            await agent.conn.load_session(cwd="/tmp", session_id=unknown, mcp_servers=[])
        assert unknown_error.value.code == -32002
        assert f"Unknown session {unknown!r}" in str(unknown_error.value)

        with pytest.raises(RequestError) as bad_error:
            await agent.conn.load_session(cwd="/tmp", session_id="../../etc/passwd", mcp_servers=[])
        assert bad_error.value.code == -32602
        assert "is not a demo session id" in str(bad_error.value)

        with pytest.raises(RequestError, match="is not a demo session id"):
            await agent.prompt("../escape", "hello")

    agents.run(scenario)


# --- The process -------------------------------------------------------------------------------


def test_closing_stdin_ends_the_process_with_exit_code_0(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start()
        await agent.new_session()
        assert await agent.close_stdin() == 0
        assert "Traceback" not in agent.stderr.read_text(encoding="utf-8")

    agents.run(scenario)


def test_closing_stdin_mid_turn_still_ends_the_process_cleanly(agents: DemoAgents) -> None:
    async def scenario() -> None:
        agent = await agents.start(delay=0.05)
        session = await agent.new_session()
        turn = asyncio.create_task(agent.prompt(session, "Tell me everything"))
        await agent.client.until(lambda: agent.client.of(session), "the first update")
        assert await agent.close_stdin() == 0
        with pytest.raises(ConnectionError):
            await turn
        assert "Traceback" not in agent.stderr.read_text(encoding="utf-8")

    agents.run(scenario)


def test_nothing_but_json_rpc_reaches_stdout(agents: DemoAgents) -> None:
    async def scenario() -> None:
        proc, _ = await agents.spawn_process()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None
        assert stdout is not None

        def send(message: dict[str, Any]) -> None:
            stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")

        async def read_until_result(number: int) -> dict[str, Any]:
            while True:
                line = await asyncio.wait_for(stdout.readline(), TIMEOUT)
                lines.append(line)
                message = json.loads(line)
                if message.get("method") == "session/request_permission":
                    allow = {"outcome": {"outcome": "selected", "optionId": "allow"}}
                    send({"id": message["id"], "result": allow})
                elif message.get("id") == number:
                    return dict(message["result"])

        lines: list[bytes] = []
        send({"id": 0, "method": "initialize", "params": {"protocolVersion": 1}})
        send({"id": 1, "method": "session/new", "params": {"cwd": "/tmp", "mcpServers": []}})
        session = (await read_until_result(1))["sessionId"]
        prompt = {"sessionId": session, "prompt": [{"type": "text", "text": "Hi"}]}
        send({"id": 2, "method": "session/prompt", "params": prompt})
        assert await read_until_result(2) == {"stopReason": "end_turn"}
        stdin.close()
        lines += (await asyncio.wait_for(stdout.read(), TIMEOUT)).splitlines(keepends=True)
        assert await asyncio.wait_for(proc.wait(), TIMEOUT) == 0
        assert len(lines) > 20
        assert all(json.loads(line)["jsonrpc"] == "2.0" for line in lines)

    agents.run(scenario)
