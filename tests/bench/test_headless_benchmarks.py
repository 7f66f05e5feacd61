"""The benchmarks that need no window run at their tiny size: each exits 0 and prints its
figures and the ratio to its anchor (never a timing asserted). `{n}` is a printed number."""

from __future__ import annotations

import pytest

from tests.bench.running import assert_printed, run_benchmark

# Each benchmark's figures, its anchor and its ratio line, as it prints them.
PRINTED = {
    "agent_stream": (
        r"bare SDK client : +{n} chunks/s",
        r"Sidekicks core +: +{n} chunks/s",
        r"ratio core/bare : {n}",
    ),
    "history": (
        r"last_messages\(ch, 100\) +median +{n} ms +p99 +{n} ms",
        r"raw cursor, 100 as bytes +median +{n} ms .*\(anchor\)",
        r"ChannelService\.Conversation median +{n} ms +p99 +{n} ms",
        r"ChannelService\.Older +median +{n} ms",
        r"ratio Conversation / raw: +{n}x",
        r"add_message that grows +median +{n} ms .* {n}x the median write",
    ),
    "export": (
        r"raw cursor, every record as bytes +{n} s +\(anchor\)",
        r"stored_messages \(models\) +{n} s +{n}x",
        r"export markdown +to a file +{n} s +{n}x",
        r"export html +to a file +{n} s +{n}x",
        r"export json +to a file +{n} s +{n}x",
        r"markdown export, Python heap peak +{n} MiB",
    ),
    "search": (
        r"index built from the history in {n} s",
        r"common word +{n} ms +{n} ms +{n} ms +{n}x",
        r"one conversation +{n} ms +{n} ms +{n} ms +{n}x",
        r"ChannelService\.Conversation \(anchor\) p50 +{n} ms",
        r"SearchIndex\.add \(per message stored\) p50 +{n} ms",
        r"worst p99 {n} ms",
    ),
    "list_while_streaming": (
        r"idle \(anchor\) +p50 +{n} ms +p99 +{n} ms",
        r"\d+ agents streaming +p50 +{n} ms +p99 +{n} ms",
        r"ratio streaming/idle p99 : {n}x",
    ),
    "checkpoints": (
        r"git status --porcelain \(anchor\) : median +{n} ms|pygit2 status\(\) .*: median +{n} ms",
        r"first checkpoint \(cold\) +: +{n} ms",
        r"nothing changed +: median +{n} ms",
        r"100 files changed +: +{n} ms",
        r"ratio nothing changed / anchor : {n}x",
        r"peak RSS growth +: {n} MiB",
    ),
    "handoffs": (
        r"direct answer \(anchor\) +: +{n} ms an answer",
        r"hand-off chain +: +{n} ms an answer",
        r"ratio chain/anchor +: +{n}",
        r"core's own cost per hop +: median +{n} ms, max {n} ms",
        r"ratio hop cost/anchor start : +{n}",
    ),
    "sdk_import": (
        r"import acp, plain \(anchor\) +: median +{n} ms of CPU",
        r"import acp, after import app +: median +{n} ms of CPU",
        r"ratio app/anchor +: {n}",
        r"demo agent, spawn to initialize : median +{n} ms",
    ),
    "fs_read": (
        r"through the agent connection : median +{n} ms",
        r"plain Python read \(anchor\) +: median +{n} ms",
        r"ratio connection/anchor +: {n}x",
    ),
}


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_the_benchmark_runs_at_its_tiny_size(name: str) -> None:
    assert_printed(run_benchmark(name, timeout=100), *PRINTED[name])


@pytest.mark.linux_only("bench/terminal_backend.py reads its memory in /proc")
def test_the_terminal_backend_benchmark_runs_at_its_tiny_size() -> None:
    assert_printed(
        run_benchmark("terminal_backend", timeout=100),
        r"anchor, output to /dev/null : +{n} s",
        r"through the backend +: +{n} s",
        r"ratio backend/anchor +: +{n}",
        r"app peak growth \(max\) +: +{n} MiB",
        r"agent read {n} chars; tool call keeps {n}",
    )
