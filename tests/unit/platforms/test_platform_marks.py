"""The platform marks skip a test elsewhere, with its reason, and never without one."""

from __future__ import annotations

import pytest

from tests.platforms import PLATFORM_MARKS, apply_platform_marks, skip_reason, this_system


@pytest.mark.parametrize(
    ("mark", "runs_on", "skipped_on"),
    [
        ("linux_only", ["linux"], ["darwin", "win32"]),
        ("posix_only", ["linux", "darwin"], ["win32"]),
        ("windows_only", ["win32"], ["linux", "darwin"]),
        ("macos_only", ["darwin"], ["linux", "win32"]),
    ],
)
def test_a_marked_test_runs_on_its_systems_and_is_skipped_with_its_reason_elsewhere(
    mark: str, runs_on: list[str], skipped_on: list[str]
) -> None:
    for platform in runs_on:
        assert skip_reason(mark, "why", platform) is None
    for platform in skipped_on:
        assert skip_reason(mark, "it needs X", platform) == f"{mark}: it needs X"


def test_a_mark_without_a_reason_is_an_error() -> None:
    for mark in PLATFORM_MARKS:
        with pytest.raises(ValueError, match="needs a reason"):
            skip_reason(mark, " ", "linux")


def test_linux_variants_count_as_linux() -> None:
    assert this_system("linux2") == "linux"
    assert this_system("cygwin") == "win32"


def test_the_marks_are_registered_with_pytest(pytestconfig: pytest.Config) -> None:
    registered = " ".join(pytestconfig.getini("markers"))
    for mark in PLATFORM_MARKS:
        assert f"{mark}(reason)" in registered


class FakeItem:
    def __init__(self, **marks: str) -> None:
        self.marks = marks
        self.added: list[pytest.MarkDecorator] = []

    def iter_markers(self, name: str) -> list[pytest.Mark]:
        return [getattr(pytest.mark, name)(self.marks[name]).mark] if name in self.marks else []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.added.append(marker)


def test_collection_adds_a_skip_with_the_reason_only_where_the_test_cannot_run() -> None:
    on_windows = FakeItem(windows_only="Job Objects")
    apply_platform_marks([on_windows], "linux")  # type: ignore[list-item]
    assert [m.mark.kwargs["reason"] for m in on_windows.added] == ["windows_only: Job Objects"]
    apply_platform_marks([FakeItem(posix_only="signals")], "darwin")  # type: ignore[list-item]
    everywhere = FakeItem()
    apply_platform_marks([everywhere], "win32")  # type: ignore[list-item]
    assert everywhere.added == []
