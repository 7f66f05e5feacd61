"""strip_ansi: what an agent's terminal codes leave in a text a person reads."""

from __future__ import annotations

import pytest

from app.acp.ansi import strip_ansi


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[1;38;5;208mbold orange\x1b[m", "bold orange"),
        ("\x1b[38;2;10;20;30mtruecolour\x1b[39m", "truecolour"),
        ("a\x1b[2Kb\x1b[1Ac\x1b[?25l", "abc"),
        ("\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b]0;window title\x07text", "text"),
        ("\x1b(Bx\x1b=y\x1b7z", "xyz"),
        ("bell\x07 back\x08space\x00nul\x7f", "bell backspacenul"),
        ("\x9b31mC1 CSI\x9b0m", "C1 CSI"),
        ("lines\nand\ttabs stay", "lines\nand\ttabs stay"),
        ("carriage\r\nreturn", "carriage\nreturn"),
        ("unterminated \x1b[31", "unterminated "),
        ("plain text, accents é and 日本", "plain text, accents é and 日本"),
    ],
)
def test_strip_ansi_removes_every_escape_sequence_and_control_character(
    raw: str, clean: str
) -> None:
    assert strip_ansi(raw) == clean
