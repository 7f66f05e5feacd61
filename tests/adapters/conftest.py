"""A headless app running one real ACP adapter (tests/adapters/node_modules/.bin) whose model
service is a scripted server on 127.0.0.1 (tests/adapters/scripted_http.py).

Each test gets its own HOME (and XDG folders) in tmp_path, for the test process and the adapter:
the adapters never read the real ~/.claude, ~/.codex, ~/.gemini or ~/.config/opencode. Outbound
traffic that honours a proxy is sent to a closed port on 127.0.0.1 (loopback excepted).

    def test_x(adapter_desk):
        desk = adapter_desk("claude", "claude-agent-acp", env={"ANTHROPIC_BASE_URL": url})
        room = desk.channels.Direct("claude").id
        answer = desk.turn(room, "do it")            # permission requests answered "allow"
        assert "done" in desk.text(answer)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.waiting import EventLog, wait_for

ADAPTERS = Path(__file__).resolve().parent
BIN = ADAPTERS / "node_modules" / ".bin"
# The adapters start slower than a fake (initialize); codex-acp ignores the end of its stdin,
# so a short stdin grace keeps each test's close quick (SIGTERM next).
TUNING = Tuning(stdin_grace=0.5, term_grace=2.0, initialize_timeout=30.0)
TURN_TIMEOUT = 25.0
# The scenario every adapter plays (docs/adapters_offline.md): its own write tool creates
# notes.txt, its own shell runs SED on other.txt, then it says "done".
PROMPT = "Write notes.txt, then replace old with new in other.txt."
SED = "sed -i 's/old/new/' other.txt"
# Phase 2 of the scenario needs the checkpoints (issue 25) wired into the app: without a
# CheckpointService its tests are expected to fail (strict: with it they must pass). Wired since
# 2ba3359, so this marks nothing now; kept for the tests that carry it.


def adapter_program(name: str) -> str:
    """The adapter's binary in node_modules/.bin; fails (never skips) when it is not installed."""
    program = BIN / name
    assert program.exists(), f"{program} is missing: run ./scripts/setup --dev"
    return str(program)


def isolated_env(home: Path) -> dict[str, str]:
    """HOME and the XDG folders in the test's folder; telemetry and updates off; a proxy that goes
    nowhere for anything that is not loopback."""
    return {
        "HOME": str(home),
        "USERPROFILE": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "http_proxy": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "DO_NOT_TRACK": "1",
        "NO_UPDATE_NOTIFIER": "1",
        "CI": "1",
    }


class AdapterDesk:
    """The app with one adapter agent working in `work/`, and helpers for one turn."""

    def __init__(self, sk: Sidekicks, log: EventLog, root: Path, agent: str) -> None:
        self.sk, self.log, self.root, self.agent = sk, log, root, agent
        self.channels = sk.api.ChannelService
        self.work = root / "work"
        self.home = root / "home"
        self.allowed: list[dict[str, Any]] = []  # the permission requests answered "allow"

    def send(self, channel: str, text: str) -> int:
        """Sends `text`; the event mark before it."""
        mark = self.log.mark()
        self.channels.Send(channel, text)
        return mark

    def answer(
        self, channel: str, mark: int, timeout: float = TURN_TIMEOUT, allow: bool = True
    ) -> dict[str, Any]:
        """The agent's next finished answer after `mark` (a message wire dict), once the turn is
        over. Permission requests met on the way are answered with an allow option when `allow`
        (recorded in `self.allowed`), else left pending (the wait then times out)."""
        answered: set[str] = set()

        def finished() -> dict[str, Any] | None:
            if allow:
                for asked in self.log.named("permission:requested", mark):
                    if asked["channel"] == channel and asked["id"] not in answered:
                        answered.add(asked["id"])
                        self.allowed.append(asked)
                        self.channels.AnswerPermission(asked["id"], allow_option(asked))
            for p in self.log.named("message:updated", mark):
                message = p["message"]
                if p["channel"] != channel or message["agent"] != self.agent:
                    continue
                if message["role"] == "agent" and message["done"]:
                    return message
                if message["role"] == "system" and message["error"]:
                    raise AssertionError(
                        f"{self.agent} failed: {message['error']}\nits log: {self.logs()}"
                    )
            return None

        message = wait_for(finished, timeout, what=f"{self.agent}'s answer")
        self.log.wait(
            "turn:changed",
            lambda p: p["channel"] == channel and not p["busy"],
            since=mark,
            timeout=timeout,
        )
        return self.message(channel, message["id"])

    def turn(self, channel: str, text: str, **kwargs: Any) -> dict[str, Any]:
        return self.answer(channel, self.send(channel, text), **kwargs)

    def message(self, channel: str, message_id: str) -> dict[str, Any]:
        """The message as the conversation keeps it (after the turn)."""
        messages = self.channels.Conversation(channel)["messages"]
        return next(m for m in messages if m["id"] == message_id)

    @staticmethod
    def text(message: Mapping[str, Any]) -> str:
        return "".join(p.get("text", "") for p in message["parts"] if p["kind"] == "text")

    @staticmethod
    def tools(message: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [p["tool"] for p in message["parts"] if p["kind"] == "tool"]

    def logs(self) -> str:
        """The agent's log (its stderr and Sidekicks' notes), for failure messages."""
        try:
            return str(self.sk.api.AgentService.Logs(self.agent))
        except Exception as error:  # only ever printed
            return f"(no logs: {error})"


def allow_option(asked: Mapping[str, Any]) -> str:
    options = asked["options"]
    for kind in ("allow_once", "allow_always"):
        for option in options:
            if option["kind"] == kind:
                return str(option["optionId"])
    raise AssertionError(f"no allow option in {options}")


OpenAdapter = Callable[..., AdapterDesk]


@pytest.fixture
def adapter_desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAdapter]:
    """`adapter_desk(name, program, env={...}, args=[...], mode=None, options={...})`: writes the
    configuration of one agent `name` running node_modules/.bin/`program` in `work/` (which
    holds other.txt = "old line\\n"), starts the app. The agent's env is the isolated one
    (isolated_env) plus `env`; the test process's HOME moves into tmp_path too."""
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    work = tmp_path / "work"
    work.mkdir()
    (work / "other.txt").write_text("old line\n", encoding="utf-8", newline="\n")
    # The test process's own HOME too (its XDG_CONFIG_HOME is tests/conftest.py's already).
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    opened: list[Sidekicks] = []

    def open_(
        name: str,
        program: str,
        env: Mapping[str, str] | None = None,
        args: list[str] | None = None,
        mode: str | None = None,
        options: Mapping[str, str] | None = None,
    ) -> AdapterDesk:
        command = [adapter_program(program), *(args or [])]
        agent_env = {**isolated_env(home), **(env or {})}
        agent: dict[str, Any] = {
            "name": name,
            "command": command,
            "env": agent_env,
            "cwd": "work",
        }
        if mode:
            agent["mode"] = mode
        if options:
            agent["options"] = dict(options)
        config = tmp_path / "desk.yaml"
        # JSON is YAML: no quoting surprises in paths or values.
        config.write_text(json.dumps({"agents": [agent]}, indent=2), encoding="utf-8")
        sk = Sidekicks(config=config, tuning=TUNING).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return AdapterDesk(sk, log, tmp_path, name)

    yield open_
    for sk in opened:
        sk.close()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative path -> text), for assertions and failure messages."""
    return {
        str(p.relative_to(folder)): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def assert_played(desk: AdapterDesk, answer: Mapping[str, Any]) -> None:
    """Phase 1 of the scenario: the turn ended with "done" and both files changed on disk."""
    files = snapshot(desk.work)
    assert "done" in desk.text(answer), (answer, desk.logs())
    assert files.get("notes.txt") == f"hello from {desk.agent}\n", (files, answer)
    assert files.get("other.txt") == "new line\n", (files, answer)


def assert_changes_revert_restore(
    desk: AdapterDesk, room: str, answer: Mapping[str, Any], notes_route: str
) -> None:
    """Phase 2 of the scenario (checkpoints, issue 25), after a played answer: its Changes list
    notes.txt (added, by `notes_route`) and other.txt (modified by the command), both the
    agent's in that answer; reverting both puts the folder back; the same prompt again, then
    Restore to before that answer, puts it back too."""
    changes = {Path(c.path).name: c for c in desk.sk.api.ChangesService.Changes(room)}
    assert sorted(changes) == ["notes.txt", "other.txt"], changes
    added, edited = changes["notes.txt"], changes["other.txt"]
    assert (added.status, added.route) == ("added", notes_route), added
    assert (edited.status, edited.route) == ("modified", "command"), edited
    for change in (added, edited):
        assert (change.agent, change.message_id) == (desk.agent, answer["id"]), change
        assert Path(change.path).resolve() == (desk.work / Path(change.path).name).resolve()

    reverted = desk.sk.api.ChangesService.Revert(room, [added.id, edited.id])
    assert sorted(c.id for c in reverted if c.reverted) == sorted([added.id, edited.id])
    assert snapshot(desk.work) == {"other.txt": "old line\n"}

    again = desk.turn(room, PROMPT)  # the same message: a second answer does it again
    assert again["id"] != answer["id"]
    assert_played(desk, again)
    checkpoints = desk.sk.api.CheckpointService
    preview = checkpoints.RestorePreview(room, again["id"])
    assert sorted(Path(f.path).name for f in preview) == ["notes.txt", "other.txt"], preview
    checkpoints.Restore(room, again["id"])
    assert snapshot(desk.work) == {"other.txt": "old line\n"}
