"""Change records' diffs (app/workspace/changes.py)."""

from __future__ import annotations

from app.workspace.changes import DIFF_LIMIT, unified_diff


def test_a_diff_counts_added_and_deleted_lines() -> None:
    diff, additions, deletions = unified_diff("/w/a.txt", "one\ntwo\n", "one\n2\nthree\n")
    assert diff.startswith("--- a/w/a.txt\n+++ b/w/a.txt\n")
    assert "-two\n+2\n+three\n" in diff
    assert (additions, deletions) == (2, 1)


def test_a_new_file_is_diffed_from_nothing() -> None:
    diff, additions, deletions = unified_diff("/w/n.txt", None, "x\ny")
    assert diff.startswith("--- /dev/null\n+++ b/w/n.txt\n")
    assert diff.endswith("+y\n\\ No newline at end of file\n")
    assert (additions, deletions) == (2, 0)


def test_a_huge_diff_is_cut_with_a_note_but_counted_whole() -> None:
    after = "".join(f"line {i} {'x' * 60}\n" for i in range(10_000))
    diff, additions, _deletions = unified_diff("/w/big.txt", "", after)
    assert len(diff) < DIFF_LIMIT + 200
    assert diff.endswith("[diff cut at 200 KB: the change is larger]\n")
    assert additions == 10_000
