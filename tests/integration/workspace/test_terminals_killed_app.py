"""Even a killed app (SIGKILL: nothing of it runs to clean up) leaves no command behind: the
command dies with the app (PDEATHSIG), and what it started — a child ignoring SIGTERM, or
children that left its group and session with `setsid` — is ended by the next start on the same
configuration folder (the run records: whatever carries the dead run's mark)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.run_records import start_time
from tests.integration.app_process import ROOT, AppProcess
from tests.integration.workspace.conftest import config_text
from tests.integration.workspace.test_terminals_no_orphans import STUBBORN
from tests.setsid_children import SETSID, escaped
from tests.waiting import wait_for

pytestmark = pytest.mark.linux_only("PDEATHSIG and the run records: /proc")

# A headless app in a process of its own: asks the agent to run the actions in argv[2], prints
# the command's "pids …" line once its (last) child is armed, then runs until killed.
APP = """
import re, sys, threading
from app import Sidekicks
sk = Sidekicks(config=sys.argv[1]).start()
seen, printed = [], []
def on_event(name, payload):
    if name == "terminal:output" and not printed:
        seen.append(payload["data"])
        text = "".join(seen)
        found = re.search(r"pids((?: [0-9]+)+)", text)  # "armed" may follow the pids at once
        if "armed" in text and found:
            printed.append(True)
            print("pids", *found[1].split(), flush=True)
sk.events.subscribe(on_event)
room = sk.api.ChannelService.Direct("writer").id
sk.api.ChannelService.Send(room, sys.argv[2])
threading.Event().wait()
"""


def same_process_alive(pid: int, started: int | None) -> bool:
    return started is not None and start_time(pid) == started


@pytest.mark.parametrize("script", [STUBBORN, SETSID], ids=["stubborn", "setsid"])
def test_a_killed_app_s_command_dies_with_it_and_the_next_start_ends_its_child(
    tmp_path: Path, script: str
) -> None:
    for folder in ("work", "extra", "outside"):
        (tmp_path / folder).mkdir()
    config = tmp_path / "desk.yaml"
    config.write_text(config_text(tmp_path), encoding="utf-8")
    actions = [{"run": sys.executable, "args": ["-c", script], "wait": False, "release": False}]
    proc = subprocess.Popen(
        [sys.executable, "-c", APP, str(config), json.dumps(actions)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    app = AppProcess(proc)
    identities: list[tuple[int, int | None]] = []
    try:
        line = app.wait_for_line(lambda line: line.startswith("pids "))
        pids = [int(pid) for pid in line.split()[1:]]
        if script == SETSID:  # its children left the command's group and session
            wait_for(lambda: escaped(pids[1:]), 10, "the children to leave")
        identities = [(pid, start_time(pid)) for pid in pids]
        assert all(same_process_alive(*identity) for identity in identities)
    finally:
        proc.kill()
        app.wait_exit()
    try:
        command, *children = identities
        wait_for(lambda: not same_process_alive(*command), 10, "the command to die with the app")
        # They ignore SIGTERM or left the group, and are not the app's children …
        assert all(same_process_alive(*child) for child in children)
        with Sidekicks(config=config):  # … until the app starts again
            wait_for(
                lambda: not any(same_process_alive(*child) for child in children),
                10, "the next start to end them",
            )  # fmt: skip
    finally:
        for pid, started in identities:
            if same_process_alive(pid, started):
                subprocess.run(["kill", "-9", str(pid)], check=False)
