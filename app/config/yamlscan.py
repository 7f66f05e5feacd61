"""ruamel's round-trip scanner, without its quadratic steps on long comments.

ruamel gathers a comment one character at a time (`comment += ch`): quadratic on a long line (a
1 MB comment line took 15 s). It also joins the comment lines that follow a value one by one
(`c.value = c.value + …`): quadratic in their number (250,000 lines took 9 s). `FastScanner`
takes a comment and a run of spaces in one slice and joins comment lines once, with the same
tokens, marks and comments as ruamel's (tests/unit/config/test_fast_scanner.py checks).
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.scanner import RoundTripScanner
from ruamel.yaml.tokens import (
    CommentToken,
    FlowMappingEndToken,
    FlowSequenceEndToken,
    ScalarToken,
    ValueToken,
)

_LINE_END = re.compile("[\n\0\r\x85\u2028\u2029]")  # ruamel's _THE_END: what ends a comment
_SPACES = re.compile(" *")
# Tokens that take a comment on their own line as theirs (ruamel's choice, kept).
_TAKES_A_COMMENT_ON_ITS_LINE = (ScalarToken, ValueToken, FlowSequenceEndToken, FlowMappingEndToken)
_SPACES_AND_TABS = re.compile("[ \t]*")


def _advance_in_line(reader: Any, count: int, skipped: str) -> None:
    """Moves the reader past `skipped` (no line break in it) as `count` calls of forward()."""
    reader.pointer += count
    reader.index += count
    reader.column += count - skipped.count("\ufeff")  # ruamel does not count a BOM as a column


def _run_length(pattern: re.Pattern[str], text: str, start: int) -> int:
    found = pattern.match(text, start)  # always matches: the patterns accept the empty run
    return found.end() - start if found is not None else 0


class FastScanner(RoundTripScanner):
    """RoundTripScanner whose `scan_to_next_token` reads comments and spaces in slices.

    The method is ruamel's (0.19), with the character loops replaced. It works on a text loaded
    whole (a str), which is how yamldoc reads; for anything else it leaves the work to ruamel."""

    def scan_to_next_token(self) -> Any:
        reader = self.reader
        if reader.raw_buffer is not None or not reader.eof:
            return super().scan_to_next_token()
        srp, srf = reader.peek, reader.forward
        if reader.index == 0 and srp() == "\ufeff":
            srf()
        spaces = _SPACES_AND_TABS if self.flow_level > 0 else _SPACES
        while True:
            _advance_in_line(reader, _run_length(spaces, reader.buffer, reader.pointer), "")
            if srp() == "#":
                return self._comment()
            if self.scan_line_break() == "":
                return None
            start_mark = reader.get_mark()
            if not self.flow_level:
                self.allow_simple_key = True
            ch = srp()
            if ch == "\n":  # empty top-level lines
                start_mark = reader.get_mark()
                comment = ""
                while ch:
                    ch = self.scan_line_break(empty_line=True)
                    comment += ch
                if srp() == "#":
                    # an empty line followed by an indented real comment
                    comment = comment.rsplit("\n", 1)[0] + "\n"
                end_mark = reader.get_mark()
                return comment, start_mark, end_mark

    def get_token(self) -> Any:
        """ruamel's (0.19), with the comment lines that follow a value joined once at the end
        instead of one by one (`c.value = c.value + …`, quadratic: 250,000 lines took 9 s)."""
        while self.need_more_tokens():
            self.fetch_more_tokens()
        self._gather_comments()
        if not self.tokens:
            return None
        first = self.tokens[0]
        second = self.tokens[1] if len(self.tokens) > 1 else None
        if isinstance(second, CommentToken):
            same_line = first.end_mark.line == second.start_mark.line
            if same_line and isinstance(first, _TAKES_A_COMMENT_ON_ITS_LINE):
                self.tokens_taken += 1
                comment = self.tokens.pop(1)
                self.fetch_more_tokens()
                comment.value = self._join_following_comments([comment.value])
                first.add_post_comment(comment)
            elif not same_line and isinstance(first, ScalarToken):
                self.tokens_taken += 1
                comment = self.tokens.pop(1)
                lines_between = comment.start_mark.line - first.end_mark.line
                head = "\n" * lines_between + " " * comment.start_mark.column + comment.value
                comment.value = head
                first.add_post_comment(comment)
                self.fetch_more_tokens()
                comment.value = self._join_following_comments([head])
        self.tokens_taken += 1
        return self.tokens.pop(0)

    def _join_following_comments(self, parts: list[str]) -> str:
        while len(self.tokens) > 1 and isinstance(self.tokens[1], CommentToken):
            self.tokens_taken += 1
            following = self.tokens.pop(1)
            parts += [" " * following.start_mark.column, following.value]
            self.fetch_more_tokens()
        return "".join(parts)

    def _comment(self) -> tuple[str, Any, Any]:
        reader = self.reader
        start_mark = reader.get_mark()
        start = reader.pointer
        end = _LINE_END.search(reader.buffer, start)
        stop = end.start() if end is not None else len(reader.buffer) - 1
        comment = reader.buffer[start:stop]
        _advance_in_line(reader, stop - start, comment)
        # As ruamel: the character that ends the comment is part of it and is stepped over,
        # except the end of the text, for which the comment gets a newline.
        ch = reader.peek()
        if ch == "\0":
            comment += "\n"
        else:
            comment += ch
            reader.forward()
        ch = self.scan_line_break()
        while ch:  # the blank lines after the comment belong to it
            comment += ch
            ch = self.scan_line_break()
        end_mark = reader.get_mark()
        if not self.flow_level:
            self.allow_simple_key = True
        return comment, start_mark, end_mark
