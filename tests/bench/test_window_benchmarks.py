"""The benchmarks of the real window run at their tiny size, offscreen (Qt's offscreen platform:
nothing asked of a display), like the e2e tests: Linux only, in the windows' xdist group (one
window at a time: tests/scheduling.py lists this file). Each exits 0 and prints its figures and
the ratio to its anchor; no timing is asserted. `{n}` is a printed number."""

from __future__ import annotations

import pytest

from tests.bench.running import assert_printed, run_benchmark

pytestmark = [
    pytest.mark.linux_only("the window under test is PyQt6/QtWebEngine offscreen, over its CDP"),
    pytest.mark.timeout(300),
]
OFFSCREEN = {"QT_QPA_PLATFORM": "offscreen", "QTWEBENGINE_DISABLE_SANDBOX": "1"}


def test_the_window_benchmark_runs_at_its_tiny_size() -> None:
    """bench/window.py: start-up and the idle tree's memory beside a bare pywebview window
    (bench/bare_window.py), and events from the core loop to the page."""
    assert_printed(
        run_benchmark("window", timeout=280, env=OFFSCREEN),
        r"bare pywebview window : +{n} ms",
        r"Sidekicks +: +{n} ms",
        r"^  ratio +: {n}",
        r"^  python +1 × +{n} MB \( *{n}\) +1 × +{n} MB \( *{n}\)",
        r"^  renderer +1 × +{n} MB \( *{n}\) +1 × +{n} MB \( *{n}\)",
        r"total PSS : bare +{n} MB +Sidekicks +{n} MB",
        r"memory ratio : {n} +\(target ≤ 1\.10\)",
        r"footprint : (bare +{n} MB +Sidekicks +{n} MB +ratio {n}|n/a)",
        r"flat out : +{n} events/s +p50 +{n} ms +p99 +{n} ms",
        r"paced +: p50 +{n} ms +p99 +{n} ms .*ratio to target {n}",
    )


def test_the_ui_render_benchmark_runs_at_its_tiny_size() -> None:
    assert_printed(
        run_benchmark("ui_render", timeout=280, env=OFFSCREEN),
        r"cold \(first open\) +: +{n} ms",
        r"cold, window settled +: +{n} ms .*after the page's warm-up",
        r"warm \(median of {n}\) +: +{n} ms",
        r"anchor \(plain <pre>\) +: +{n} ms",
        r"ratio to the anchor +: cold {n}x, uncached {n}x, warm {n}x",
        r"target: cold ≤ {n}x the anchor: (met|NOT met)( \(cold, window settled: met\))?$",
        r"2\. stream /bench {n}: .*text complete: True",
        r"ratio p99 shown / not shown {n}, shown / idle {n}",
        r"paced {n}/s for {n} s: .*text complete: True",
        r"target: paced and shown, p99 ≤ {n} ms \({n} ms, {n}x .*\): (met|NOT met)$",
        r"ratio top / open +: {n}",
        r"JS heap after GC +: {n} MB",
    )


def test_the_terminal_stream_benchmark_runs_at_its_tiny_size() -> None:
    assert_printed(
        run_benchmark("terminal_stream", timeout=280, env=OFFSCREEN),
        r"flat out +: +{n} s from Send .* exit code 0",
        r"paced {n} MB/s +: +{n} s from Send .* exit code 0",
        r"ratio to idle: p50 {n}x +p99 {n}x",
        r"ratio p99 shown / not shown {n}",
        r"target: paced and shown, p99 ≤ {n}x the idle page's p99: {n} ms, {n}x: (met|NOT met)$",
        r"idle anchor +: p50 +{n} ms",
        r"backend RSS +: +{n} MB → +{n} MB → +{n} MB +\(ratio {n}",
    )
