"""A command printing 20 MB: the agent gets the capped tail, the page a bounded stream that says
what it skipped, the app's memory stays bounded, and history keeps the tool call's final output
(its last 64 KiB) across a restart."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.workspace.output_tail import DEFAULT_LIMIT
from app.workspace.terminals import VIEW_BYTES
from tests.integration.workspace.conftest import Desk

LINES = 200_000  # of 100 bytes: 20 MB
HUGE = (
    "import sys\n"
    f"for i in range({LINES}):\n"
    "    sys.stdout.write(f'{i:09d} ' + 'x' * 89 + '\\n')\n"
    "sys.stdout.write('THE END\\n')\n"
)


def peak_rss_reset() -> None:
    """Resets this process's peak resident size (VmHWM), Linux ≥ 4.0."""
    Path("/proc/self/clear_refs").write_text("5")


def status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(field)


@pytest.mark.linux_only("measures memory in /proc/self/status")
def test_twenty_megabytes_of_output_keep_memory_bounded_and_history_keeps_the_tail(
    open_desk: Callable[[], Desk],
) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    before = status("VmRSS")
    peak_rss_reset()
    (result,) = desk.run(room, [{"run": sys.executable, "args": ["-c", HUGE]}])
    grown = status("VmHWM") - before

    assert result["exit"]["exitCode"] == 0
    assert result["truncated"] is True
    assert len(result["output"].encode()) == DEFAULT_LIMIT  # the default cap, all whole lines
    assert result["output"].endswith(f"{LINES - 1:09d} " + "x" * 89 + "\nTHE END\n")

    live = desk.log.named("terminal:output")
    streamed = sum(len(e["data"]) for e in live)
    assert streamed < 20_000_000 // 4  # the page got a bounded stream …
    assert any("not shown here" in e["data"] for e in live)  # … saying what it skipped
    assert "".join(e["data"] for e in live).endswith("THE END\n")
    # The app held the 1 MiB tail, 64 KiB per event and the agent's 1 MiB answer, never 20 MB.
    assert grown < 60 * 1024 * 1024, f"grew by {grown / 2**20:.0f} MiB"

    def stored_view(d: Desk) -> dict[str, object]:
        answer = [m for m in d.channels.Conversation(room)["messages"] if m["role"] == "agent"][-1]
        (view,) = [t for p in answer["parts"] if p.get("tool") for t in p["tool"]["terminals"]]
        return view

    view = stored_view(desk)
    assert str(view["output"]).endswith("THE END\n")
    assert VIEW_BYTES - 100 < len(str(view["output"]).encode()) <= VIEW_BYTES
    assert (view["truncated"], view["running"], view["exitCode"]) == (True, False, 0)

    desk.sk.close()
    again = open_desk()
    assert stored_view(again) == view  # after a restart, from history
