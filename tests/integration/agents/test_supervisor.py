"""The agent state machine of SPEC §1 with real agent processes (the scriptable fake)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.errors import UserError
from app.models.agents import AgentInfo
from tests.agents import agent_yaml, write_config
from tests.running import running
from tests.waiting import EventLog, wait_for

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, idle_check_period=0.05, initialize_timeout=5.0)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    return tmp_path / "agents.yaml"


def open_app(path: Path, tuning: Tuning = FAST) -> tuple[Sidekicks, EventLog]:
    sk = Sidekicks(config=path, tuning=tuning).start()
    log = EventLog()
    sk.events.subscribe(log)
    return sk, log


@pytest.fixture
def make_app(config_path: Path) -> Iterator[object]:
    opened: list[Sidekicks] = []

    def make(agents: str, tuning: Tuning = FAST, **kw: object) -> tuple[Sidekicks, EventLog]:
        write_config(config_path, agents, **kw)  # type: ignore[arg-type]
        sk, log = open_app(config_path, tuning)
        opened.append(sk)
        return sk, log

    yield make
    for sk in opened:
        sk.close()


def python_agent(code: str, name: str = "a") -> str:
    """An agent entry whose program is `python -c CODE` (no shell: it runs on every system)."""
    return f"  - name: {name}\n    command: {json.dumps([sys.executable, '-c', code])}\n"


def states(log: EventLog, agent: str) -> list[str]:
    return [p["state"] for p in log.named("agent:state") if p["agent"] == agent]


def agent(sk: Sidekicks, name: str) -> AgentInfo:
    return next(a for a in sk.api.AgentService.List() if a.name == name)


def test_list_shows_every_agent_stopped_in_configuration_order(make_app) -> None:
    sk, _ = make_app(agent_yaml("zed") + agent_yaml("alpha") + agent_yaml("mid", title="Mid"))
    agents = sk.api.AgentService.List()
    assert [a.name for a in agents] == ["zed", "alpha", "mid"]
    assert agents[2].wire() == {
        "name": "mid", "title": "Mid", "icon": "", "description": "",
        "state": "stopped", "error": "", "outdated": False, "commandMissing": "",
        "authMethods": [], "needsSignIn": False, "signInHint": "", "listsSessions": None,
    }  # fmt: skip
    assert agents[0].title == "zed"


def test_start_goes_through_starting_to_ready_and_stop_back_to_stopped(make_app) -> None:
    sk, log = make_app(agent_yaml("a"))
    mark = log.mark()
    info = sk.api.AgentService.Start("a")
    assert info.state == "ready"
    sk.api.AgentService.Stop("a")
    assert agent(sk, "a").state == "stopped"
    assert [p["state"] for p in log.named("agent:state", since=mark)] == [
        "starting", "ready", "stopped",
    ]  # fmt: skip


def test_unknown_agent_names_are_clear_errors(make_app) -> None:
    sk, _ = make_app(agent_yaml("a"))
    for call in (sk.api.AgentService.Start, sk.api.AgentService.Stop, sk.api.AgentService.Logs):
        with pytest.raises(UserError, match="no agent named `ghost`"):
            call("ghost")


@pytest.mark.parametrize(
    ("behaviour", "expected"),
    [
        ("crash-on-start", "exited during start (exit code 3)\nfatal: the fake agent cannot start"),
        ("protocol-2", "speaks ACP version 2; Sidekicks speaks version 1"),
        ("init-error", "refused to start: fake agent refuses"),
    ],
)
def test_a_failed_start_ends_in_error_with_the_reason_and_stderr(
    make_app, behaviour: str, expected: str
) -> None:
    sk, log = make_app(agent_yaml("a", behaviour))
    with pytest.raises(UserError) as raised:
        sk.api.AgentService.Start("a")
    assert expected in str(raised.value)
    info = agent(sk, "a")
    assert info.state == "error"
    assert expected in str(info.error)
    assert states(log, "a")[-2:] == ["starting", "error"]
    assert log.named("agent:state")[-1]["error"] == info.error


def test_an_agent_that_never_answers_initialize_times_out(make_app) -> None:
    tuning = Tuning(stdin_grace=0.5, term_grace=0.5, initialize_timeout=0.5)
    sk, _ = make_app(agent_yaml("a", "no-initialize"), tuning=tuning)
    with pytest.raises(UserError, match=r"did not answer `initialize` within 0.5 s"):
        sk.api.AgentService.Start("a")
    assert "fake agent ready" in str(agent(sk, "a").error)


def test_a_command_that_does_not_exist_is_an_error_a_person_understands(make_app) -> None:
    sk, _ = make_app("  - name: a\n    command: [no-such-program-xyz]\n")
    with pytest.raises(UserError, match="`no-such-program-xyz` was not found"):
        sk.api.AgentService.Start("a")
    assert agent(sk, "a").state == "error"


def test_a_cwd_that_does_not_exist_is_an_error(make_app, tmp_path: Path) -> None:
    sk, _ = make_app(agent_yaml("a", cwd=str(tmp_path / "gone")))
    with pytest.raises(UserError, match="gone does not exist"):
        sk.api.AgentService.Start("a")


def test_an_error_agent_can_be_started_again(make_app, config_path: Path) -> None:
    sk, log = make_app(agent_yaml("a", "crash-on-start"))
    with pytest.raises(UserError):
        sk.api.AgentService.Start("a")
    mark = log.mark()
    write_config(config_path, agent_yaml("a"))
    log.wait("config:changed", since=mark, timeout=3)
    assert sk.api.AgentService.Start("a").state == "ready"


def test_a_crash_goes_to_error_with_stderr_and_is_not_restarted(make_app) -> None:
    sk, log = make_app(agent_yaml("a", "exit-after-init"))
    mark = log.mark()
    sk.api.AgentService.Start("a")
    event = log.wait("agent:state", lambda p: p["state"] == "error", since=mark)
    assert "stopped by itself (exit code 4)" in event["error"]
    assert "fake agent ready" in event["error"]
    assert [p["state"] for p in log.named("agent:state", since=mark)] == [
        "starting", "ready", "error",
    ]  # fmt: skip
    assert agent(sk, "a").state == "error"


def test_stop_during_starting_ends_the_handshake_at_once_and_the_agent_is_stopped(
    make_app,
) -> None:
    # The agent never answers `initialize` and the timeout is 10 minutes: a Stop that waited for
    # the handshake would outlast the API's own 15 s bound and fail, not return `stopped`.
    tuning = Tuning(stdin_grace=5.0, term_grace=5.0, initialize_timeout=600.0)
    sk, log = make_app(agent_yaml("a", "no-initialize"), tuning=tuning)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            sk.api.AgentService.Start("a")
        except UserError as err:
            errors.append(err)

    starter = threading.Thread(target=start)
    mark = log.mark()  # before the start: its "starting" may come before the thread returns
    starter.start()
    log.wait("agent:state", lambda p: p["state"] == "starting")
    assert sk.api.AgentService.Stop("a").state == "stopped"
    starter.join(10)
    assert not starter.is_alive()
    assert [p["state"] for p in log.named("agent:state", since=mark)] == ["starting", "stopped"]
    assert [str(e) for e in errors] == ["the agent was stopped while it was starting"]


def test_a_changed_definition_marks_a_running_agent_outdated_until_restart(
    make_app, config_path: Path
) -> None:
    sk, log = make_app(agent_yaml("a") + agent_yaml("b"))
    sk.api.AgentService.Start("a")
    mark = log.mark()
    write_config(config_path, agent_yaml("a", env={"X": "1"}) + agent_yaml("b", title="B"))
    event = log.wait("agent:state", lambda p: p["agent"] == "a", since=mark, timeout=3)
    assert event["state"] == "ready"
    assert agent(sk, "a").outdated is True
    assert agent(sk, "b").outdated is False  # not running: nothing to restart
    assert agent(sk, "b").title == "B"
    assert sk.api.AgentService.Restart("a").outdated is False


def test_a_new_title_icon_or_description_shows_on_a_running_agent_without_a_restart(
    make_app, config_path: Path
) -> None:
    sk, log = make_app(agent_yaml("a"))
    sk.api.AgentService.Start("a")
    mark = log.mark()
    write_config(config_path, agent_yaml("a", title="Alice", icon="A", description="changed"))
    event = log.wait("agent:state", lambda p: p["agent"] == "a", since=mark, timeout=3)
    assert event["state"] == "ready"
    shown = agent(sk, "a")
    assert (shown.title, shown.icon, shown.description) == ("Alice", "A", "changed")
    assert shown.outdated is False


def test_an_agent_removed_from_the_configuration_is_stopped(make_app, config_path: Path) -> None:
    sk, log = make_app(agent_yaml("a") + agent_yaml("b"))
    sk.api.AgentService.Start("a")
    pid_seen = log.mark()
    write_config(config_path, agent_yaml("b"))
    log.wait("agent:state", lambda p: p["agent"] == "a" and p["state"] == "stopped",
             since=pid_seen, timeout=5)  # fmt: skip
    assert [a.name for a in sk.api.AgentService.List()] == ["b"]


def test_the_least_recently_used_idle_agent_makes_room(make_app) -> None:
    clock = Clock()
    tuning = Tuning(stdin_grace=1, term_grace=1, idle_check_period=3600, clock=clock)
    sk, _ = make_app(agent_yaml("a") + agent_yaml("b") + agent_yaml("c"), tuning, max_running=2)
    sk.api.AgentService.Start("a")
    clock.now += 10
    sk.api.AgentService.Start("b")
    clock.now += 10
    assert sk.api.AgentService.Start("c").state == "ready"
    assert [x.state for x in sk.api.AgentService.List()] == ["stopped", "ready", "ready"]


def test_a_start_is_refused_when_every_running_agent_is_busy(make_app) -> None:
    sk, _ = make_app(agent_yaml("a") + agent_yaml("b") + agent_yaml("c"), max_running=2)
    supervisor = sk._supervisor
    sk._core.run(supervisor.acquire("a"))
    sk._core.run(supervisor.acquire("b"))
    assert agent(sk, "a").state == "busy"
    with pytest.raises(UserError) as raised:
        sk.api.AgentService.Start("c")
    assert str(raised.value) == (
        "2 agents are already running (the limit is 2): a, b. Stop one of them to start c."
    )
    sk._core.call(lambda: supervisor.release("b"))
    assert agent(sk, "b").state == "ready"
    assert sk.api.AgentService.Start("c").state == "ready"
    assert agent(sk, "b").state == "stopped"


def test_the_limit_refusal_counts_a_starting_agent_as_running_and_says_so(make_app) -> None:
    tuning = Tuning(stdin_grace=0.5, term_grace=0.5, initialize_timeout=30.0)
    sk, log = make_app(agent_yaml("a") + agent_yaml("b", "no-initialize") + agent_yaml("c"),
                       tuning, max_running=2)  # fmt: skip
    supervisor = sk._supervisor
    sk._core.run(supervisor.acquire("a"))
    starter = threading.Thread(target=lambda: _start_quietly(sk, "b"))
    starter.start()
    log.wait("agent:state", lambda p: p["agent"] == "b" and p["state"] == "starting")
    with pytest.raises(UserError) as raised:
        sk.api.AgentService.Start("c")
    assert str(raised.value) == (
        "2 agents are already running (the limit is 2): a, b (starting). "
        "Stop one of them to start c."
    )
    sk.api.AgentService.Stop("b")
    starter.join(10)


def _start_quietly(sk: Sidekicks, name: str) -> None:
    with contextlib.suppress(UserError):
        sk.api.AgentService.Start(name)


def test_an_idle_agent_is_stopped_after_the_configured_time(make_app) -> None:
    clock = Clock()
    tuning = Tuning(stdin_grace=1, term_grace=1, idle_check_period=0.05, clock=clock)
    sk, log = make_app(agent_yaml("a") + agent_yaml("b"), tuning, idle="90s")
    sk.api.AgentService.Start("a")
    sk._core.run(sk._supervisor.acquire("b"))
    clock.now += 89
    clock.now += 2
    log.wait("agent:state", lambda p: p["agent"] == "a" and p["state"] == "stopped", timeout=5)
    assert agent(sk, "b").state == "busy"  # in use: never stopped for idleness
    sk._core.call(lambda: sk._supervisor.release("b"))


def test_idle_stop_never_happens_when_the_limit_is_zero(make_app) -> None:
    clock = Clock()
    tuning = Tuning(stdin_grace=1, term_grace=1, idle_check_period=3600, clock=clock)
    sk, _ = make_app(agent_yaml("a"), tuning, idle="0")
    sk.api.AgentService.Start("a")
    clock.now += 10**9
    sk._core.run(sk._supervisor.idle.check())
    assert agent(sk, "a").state == "ready"


def test_logs_keep_the_last_200_stderr_lines_and_stream_them(make_app) -> None:
    # The agent answers `initialize` only after its 100 MiB of stderr, all read by the app: on a
    # loaded machine that took more than FAST's 5 s (seen once). What is tested is the log.
    flooding = dataclasses.replace(FAST, initialize_timeout=60.0)
    sk, log = make_app(agent_yaml("a", "stderr-flood"), flooding)
    sk.api.AgentService.Start("a")
    wait_for(lambda: "fake agent ready" in str(sk.api.AgentService.Logs("a")), timeout=30)
    lines = sk.api.AgentService.Logs("a")
    assert len(lines) == 200
    assert lines[-1].startswith("fake agent ready")
    assert lines[-2] == "flood done"
    # The flood is summarised, not sent line by line, and its last lines still show.
    wait_for(lambda: any(p["line"].startswith("fake agent ready") for p in log.named("agent:log")))
    streamed = [p["line"] for p in log.named("agent:log") if p["agent"] == "a"]
    assert streamed[0].startswith("flood")
    assert len(streamed) < 10_000
    assert any("more stderr lines were not shown" in line for line in streamed)


def test_the_agent_gets_the_full_environment_plus_its_own(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKICKS_TEST_INHERITED", "from-the-user")
    monkeypatch.setenv("FAKE_SAY_ENV", "SIDEKICKS_TEST_INHERITED,OWN")  # the fake says them
    sk, _ = make_app(agent_yaml("a", env={"OWN": "own-value"}))
    sk.api.AgentService.Start("a")
    assert "env: from-the-user own-value" in sk.api.AgentService.Logs("a")


def test_an_agent_of_the_packaged_app_gets_the_library_path_the_person_had(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PyInstaller's bootloader put the bundle first; the agent must not load its libraries.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/bundle/_internal:/the/persons/lib")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/the/persons/lib")
    monkeypatch.setenv("FAKE_SAY_ENV", "LD_LIBRARY_PATH,LD_LIBRARY_PATH_ORIG")
    sk, _ = make_app(agent_yaml("a"))
    sk.api.AgentService.Start("a")
    assert "env: /the/persons/lib " in sk.api.AgentService.Logs("a")


def test_stopping_a_stubborn_agent_ends_it_and_its_grandchildren(
    make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDFILE", str(pidfile))
    # Shorter graces than the app's 5 s and 3 s (test_the_default_graces_are_the_documented_ones):
    # what ignores stdin's end and SIGTERM is killed all the same.
    tuning = Tuning(stdin_grace=0.5, term_grace=0.5)
    sk, _ = make_app(agent_yaml("a", "stubborn", "grandchildren"), tuning=tuning)
    sk.api.AgentService.Start("a")
    pids = [
        int(p)
        for p in wait_for(lambda: pidfile.exists() and pidfile.read_text(encoding="utf-8")).split()
    ]
    assert len(pids) == 2
    sk.api.AgentService.Stop("a")  # stdin closed, 0.5 s, SIGTERM (ignored), 0.5 s, SIGKILL
    # (a killed process may stay a zombie a moment, until its new parent reaps it)
    wait_for(lambda: not any(running(pid) for pid in pids), what="the grandchildren gone")
    assert agent(sk, "a").state == "stopped"


def test_the_default_graces_are_the_documented_ones() -> None:
    """docs/agents.md: stdin closed, 5 s, SIGTERM, 3 s, SIGKILL; what the app runs with when
    nothing is tuned (the tests above tune them shorter)."""
    defaults = Tuning()  # what the Supervisor takes when it is given none
    assert (defaults.stdin_grace, defaults.term_grace) == (5.0, 3.0)


def test_closing_the_app_stops_every_agent(
    config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDFILE", str(pidfile))
    write_config(config_path, agent_yaml("a", "stubborn", "grandchildren") + agent_yaml("b"))
    sk, _ = open_app(config_path, Tuning(stdin_grace=1, term_grace=1))
    sk.api.AgentService.Start("a")
    sk.api.AgentService.Start("b")
    said = wait_for(lambda: pidfile.exists() and pidfile.read_text(encoding="utf-8"))
    grandchildren = [int(pid) for pid in said.split()]
    sk.close()  # on Linux the autouse fixture also fails the test if any process is left
    assert grandchildren
    # (a killed process may stay a zombie a moment, until its new parent reaps it)
    wait_for(lambda: not any(running(pid) for pid in grandchildren), what="the grandchildren gone")


def test_a_program_that_exits_at_once_is_an_error_with_its_output(make_app) -> None:
    sk, _ = make_app(
        python_agent("import sys; print('usage: wrong flags', file=sys.stderr); sys.exit(64)")
    )
    with pytest.raises(UserError) as raised:
        sk.api.AgentService.Start("a")
    assert str(raised.value) == "the agent exited during start (exit code 64)\nusage: wrong flags"


def test_a_program_that_prints_no_json_times_out_with_its_stderr(make_app) -> None:
    tuning = Tuning(stdin_grace=0.5, term_grace=0.5, initialize_timeout=1.0)
    script = (
        "import sys, time; print('hello there', flush=True);"
        " print('not an ACP agent', file=sys.stderr, flush=True); time.sleep(60)"
    )
    sk, _ = make_app(python_agent(script), tuning=tuning)
    with pytest.raises(UserError) as raised:
        sk.api.AgentService.Start("a")
    assert "did not answer `initialize` within 1 s\nnot an ACP agent" in str(raised.value)
    assert agent(sk, "a").state == "error"


def test_a_crash_while_busy_goes_to_error_and_the_user_is_released(make_app) -> None:
    sk, log = make_app(agent_yaml("a", "exit-mid-turn"))
    supervisor = sk._supervisor

    async def turn() -> str:
        conn = await supervisor.acquire("a")
        try:

            class Quiet:
                def on_event(self, event: object) -> None:
                    pass

            session = (await conn.new_session(Quiet())).session_id
            try:
                await conn.prompt(session, "hi")
            except ConnectionError:
                return "connection closed"
            return "answered"
        finally:
            supervisor.release("a")

    assert sk._core.run(turn()) == "connection closed"
    event = log.wait("agent:state", lambda p: p["state"] == "error")
    assert "exit code 1" in event["error"]
    assert "dying mid-turn" in event["error"]
    assert agent(sk, "a").state == "error"


def test_the_builtin_demo_agent_starts_and_announces_itself(make_app) -> None:
    sk, _ = make_app("  - name: demo\n    builtin: demo\n")
    assert sk.api.AgentService.Start("demo").state == "ready"
    conn = sk._supervisor.runtime("demo").conn
    assert conn is not None
    assert conn.info is not None
    assert conn.info.agent_info is not None
    assert conn.info.agent_info.name == "sidekicks-demo"
    assert conn.supports_load


def test_a_failed_start_shows_only_its_own_stderr(make_app) -> None:
    sk, _ = make_app(agent_yaml("a", "crash-on-start"))
    for _ in range(2):
        with pytest.raises(UserError) as raised:
            sk.api.AgentService.Start("a")
    assert str(raised.value).count("fatal: the fake agent cannot start") == 1
    assert sk.api.AgentService.Logs("a").count("fatal: the fake agent cannot start") == 2
