"""A command streaming 50 MB of output into a tool call's card, in the real offscreen window
(not a test: prints figures).

The workspace fake (tests/fakes/workspace_agent.py) runs, through Sidekicks' `terminal/*`, a
Python one-liner that prints 50 MB of coloured lines: once as fast as the pipe takes them, once
paced at 5 MB/s (10 s of streaming). While it streams, its card is unfolded and on screen: the
live output reaches the page as `terminal:output` and is written into xterm.js once per
animation frame.

1. The page's frame gaps (requestAnimationFrame intervals) from the message sent to the end of
   the answer: p50, p99, max. Anchors, in the same run: the same page idle, and the paced
   stream while the Agents panel is shown (delivered to the page, drawn by no card).
2. The memory held: the page's JS heap after a garbage collection (CDP), the backend's RSS
   (the app's Python process) and the renderer's (QtWebEngine's processes), before the first
   stream, after it and after the second. Anchor: the "before" figures.

Run: .venv/bin/python bench/terminal_stream.py   (needs ui/dist: cd ui && npm run build)
     `BENCH_TERMINAL_MB` changes the size; `--tiny`: 1 MB, 300 ms idle
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.proc_tree import descendants  # noqa: E402
from bench.sizes import count, pick  # noqa: E402
from tests.e2e.window import end_driver, running_app  # noqa: E402

TOTAL_MB = count("BENCH_TERMINAL_MB", 50, 1)
PACED_MB_S = 5
WORKSPACE_AGENT = ROOT / "tests" / "fakes" / "workspace_agent.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
IDLE_MS = pick(3000, 300)
# How often the page is asked whether a stream ended (a poll runs in the page, between the frames
# measured: rarely at full size; the tiny streams are short).
STREAM_POLL = pick(200, 50)
# Issue 29's target: under the paced flood, the page's frame gaps p99 within 2x the idle page's.
P99_TARGET = 2.0

# 100-byte lines with two colours, written in 1 MB blocks; paced: a block every 1/rate s.
PRINTER = """
import sys, time
line = lambda i: f"\\x1b[32m{i:>9}\\x1b[0m \\x1b[34m" + "x" * 72 + f"\\x1b[0m {i % 7} end\\n"
block = "".join(line(i) for i in range(10_000)).encode()  # 1,000,000 bytes
total, rate = int(sys.argv[1]), float(sys.argv[2])
start = time.monotonic()
for n in range(total):
    if rate:
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    sys.stdout.buffer.write(block)
sys.stdout.buffer.write(b"\\x1b[1;32mstream complete\\x1b[0m\\n")
sys.stdout.flush()
"""

FRAMES = """() => {
  window.__gaps = [];
  window.__framing = true;
  let last = 0;
  const tick = (t) => {
    if (last) window.__gaps.push([t, t - last]);
    last = t;
    if (window.__framing) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

STREAM = """() => {
  window.__stream = {
    sent: performance.now(), first: 0, exited: 0, done: 0, events: 0, onScreen: 0, chars: 0,
  };
  if (window.__streamWrapped) return;
  window.__streamWrapped = true;
  const dispatch = window.__sidekicks.dispatch;
  window.__sidekicks.dispatch = (batch) => {
    const s = window.__stream;
    for (const [name, p] of batch) {
      if (name === 'terminal:output') {
        s.events++;
        const card = [...document.querySelectorAll('[data-testid=terminal]')].pop();
        if (card?.dataset.terminal === p.terminal && card.querySelector('.xterm')) s.onScreen++;
        s.chars += p.data.length;
        if (!s.first) s.first = performance.now();
      }
      if (name === 'terminal:exited') s.exited = performance.now();
      if (name === 'message:updated' && p.message.role === 'agent' && p.message.done)
        s.done = performance.now();
    }
    dispatch(batch);
  };
}"""

TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def heap_mb(page: Any) -> float:
    """The page's JS heap after a garbage collection, in MB."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("HeapProfiler.collectGarbage")
    used = cdp.send("Runtime.getHeapUsage")["usedSize"]
    cdp.detach()
    return float(used) / 1048576


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def renderer_mb(app_pid: int) -> float:
    total = 0.0
    for pid in descendants(app_pid):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if name.startswith("QtWebEngine"):
            total += rss_mb(pid)
    return total


def memory(page: Any, app_pid: int) -> dict[str, float]:
    page.evaluate(TWO_FRAMES)
    return {"heap": heap_mb(page), "backend": rss_mb(app_pid), "renderer": renderer_mb(app_pid)}


def send(page: Any, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def stream(page: Any, rate: float) -> dict[str, Any]:
    """One 50 MB stream (`rate` MB/s, 0: flat out); frame gaps from the message sent to the end
    of the answer (the backend's work on the output included)."""
    answers = page.locator("[data-role=agent][data-done=true]").count()
    page.evaluate(STREAM)
    page.evaluate(FRAMES)
    # The agent reads a 256-byte tail: its report (the answer's text, under the card) stays
    # short, so the card stays on screen while it streams.
    action = {
        "run": sys.executable,
        "args": ["-c", PRINTER, str(TOTAL_MB), str(rate)],
        "limit": 256,
    }
    cards = page.locator("[data-testid=terminal]").count()
    send(page, json.dumps([action]))
    # Its card in view as a person would put it (the wheel first: the list stops following the
    # bottom, so the answer's growth does not move the card away).
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=terminal]').length > n", arg=cards
    )
    page.hover("[data-testid=messages]")
    page.mouse.wheel(0, -60)
    page.locator("[data-testid=terminal]").last.scroll_into_view_if_needed()
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-role=agent][data-done=true]').length > n",
        arg=answers,
        timeout=600_000,
        polling=STREAM_POLL,
    )
    # The card says how the command ended (its screen has what it was given), two more frames.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=terminal]')].pop()"
        "?.dataset.exitCode === '0'",
        timeout=60_000,
    )
    page.evaluate(TWO_FRAMES)
    page.evaluate("window.__framing = false")
    s = page.evaluate("window.__stream")
    end = max(s["exited"], s["done"])
    gaps = [gap for t, gap in page.evaluate("window.__gaps") if s["sent"] <= t <= end + 100]
    terminal = page.locator("[data-testid=terminal]").last
    return {
        "seconds": (end - s["sent"]) / 1000,
        "streaming": (s["exited"] - s["first"]) / 1000,
        "events": s["events"],
        "on_screen": s["onScreen"],
        "page_mb": s["chars"] / 1e6,
        "frames": len(gaps),
        "p50": percentile(gaps, 0.5),
        "p99": percentile(gaps, 0.99),
        "max": max(gaps),
        "exit": terminal.get_attribute("data-exit-code"),
        "terminals": page.evaluate("document.querySelectorAll('.xterm').length"),
    }


def stream_unseen(page: Any, channel: str) -> dict[str, Any]:
    """The paced stream while the Agents panel is shown: the events reach the page and are
    dispatched (the live tails kept), no card draws them. The anchor of what xterm costs."""
    page.click("[data-testid=nav-agents]")
    page.wait_for_selector("[data-testid=agents-panel]")
    page.evaluate(STREAM)
    page.evaluate(FRAMES)
    action = {
        "run": sys.executable,
        "args": ["-c", PRINTER, str(TOTAL_MB), str(PACED_MB_S)],
        "limit": 256,
    }
    page.evaluate(
        "([id, text]) => window.pywebview.api.ChannelService.Send(id, text)",
        [channel, json.dumps([action])],
    )
    page.wait_for_function("() => window.__stream.done > 0", timeout=600_000, polling=STREAM_POLL)
    page.evaluate(TWO_FRAMES)
    page.evaluate("window.__framing = false")
    s = page.evaluate("window.__stream")
    gaps = [gap for t, gap in page.evaluate("window.__gaps") if s["sent"] <= t <= s["done"] + 100]
    return {"p50": percentile(gaps, 0.5), "p99": percentile(gaps, 0.99), "max": max(gaps)}


def main() -> None:
    xdg = Path(tempfile.mkdtemp())
    atexit.register(shutil.rmtree, xdg, ignore_errors=True)  # the run's history with it
    os.environ["XDG_CONFIG_HOME"] = str(xdg)
    (xdg / "work").mkdir()
    command = json.dumps([sys.executable, str(WORKSPACE_AGENT)])
    config = xdg / "terminal-bench.yaml"
    config.write_text(
        f"agents:\n  - name: streamer\n    command: {command}\n    cwd: work\n", encoding="utf-8"
    )
    with running_app(["--config", str(config)], xdg / "app.log", motion=True) as (page, proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        page.locator("[data-testid=agent-item]", has_text="streamer").click()
        page.wait_for_selector(CONVERSATION)
        # Warm up: the agent started, xterm loaded, one small command shown.
        send(page, json.dumps([{"run": "printf", "args": ["\\033[32mready\\033[0m\\n"]}]))
        page.wait_for_function(
            "() => document.querySelector('.xterm-rows')?.textContent.includes('ready')",
            timeout=60_000,
        )
        page.evaluate(FRAMES)
        page.wait_for_timeout(IDLE_MS)  # an idle period to measure, not a wait for a condition
        page.evaluate("window.__framing = false")
        idle = [gap for _t, gap in page.evaluate("window.__gaps")]
        before = memory(page, proc.pid)
        flat = stream(page, 0)
        middle = memory(page, proc.pid)
        paced = stream(page, PACED_MB_S)
        after = memory(page, proc.pid)
        channel = page.get_attribute("[data-testid=conversation]", "data-channel") or ""
        unseen = stream_unseen(page, channel)

    idle_p50, idle_p99, idle_max = percentile(idle, 0.5), percentile(idle, 0.99), max(idle)
    lines = [f"a command printing {TOTAL_MB} MB of coloured lines into its tool card"]
    for name, r in (("flat out", flat), (f"paced {PACED_MB_S} MB/s", paced)):
        lines += [
            f"  {name:<14}: {r['seconds']:5.1f} s from Send to the end of the answer"
            f" ({r['streaming']:.1f} s from the first output to the exit),"
            f" {r['events']} terminal:output events ({r['on_screen']} into a shown xterm),"
            f" {r['page_mb']:.1f} MB of it reached the page (the rest skipped live),"
            f" exit code {r['exit']}, {r['terminals']} xterm(s) in the page",
            f"    frame gaps : p50 {r['p50']:6.1f} ms   p99 {r['p99']:6.1f} ms"
            f"   max {r['max']:6.1f} ms   ({r['frames']} frames)",
            f"    ratio to idle: p50 {r['p50'] / idle_p50:.2f}x   p99 {r['p99'] / idle_p99:.2f}x"
            f"   max {r['max'] / idle_max:.2f}x",
        ]
    ratio = paced["p99"] / idle_p99
    met = "met" if ratio <= P99_TARGET else "NOT met"
    lines += [
        f"  target: paced and shown, p99 ≤ {P99_TARGET:g}x the idle page's p99:"
        f" {paced['p99']:.1f} ms, {ratio:.2f}x: {met}",
        f"  anchor, paced stream not shown (Agents panel): p50 {unseen['p50']:6.1f} ms"
        f"   p99 {unseen['p99']:6.1f} ms   max {unseen['max']:6.1f} ms;"
        f" ratio p99 shown / not shown {paced['p99'] / unseen['p99']:.2f}",
        f"  idle anchor   : p50 {idle_p50:6.1f} ms   p99 {idle_p99:6.1f} ms"
        f"   max {idle_max:6.1f} ms   ({len(idle)} frames over {IDLE_MS / 1000:g} s)",
        "  memory held: before the streams → after the first → after the second",
    ]
    for key, label in (
        ("heap", "page JS heap after GC"),
        ("backend", "backend RSS"),
        ("renderer", "renderer RSS"),
    ):
        lines.append(
            f"    {label:<22}: {before[key]:6.1f} MB → {middle[key]:6.1f} MB → {after[key]:6.1f} MB"
            f"   (ratio {after[key] / before[key]:.2f}, +{after[key] - before[key]:.1f} MB)"
            if before[key]
            else f"    {label:<22}: not measured"
        )
    print("\n".join(lines))


if __name__ == "__main__":
    try:
        main()
    finally:
        end_driver()  # the Playwright driver the window used
