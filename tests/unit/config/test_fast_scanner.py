"""FastScanner reads comments in slices, not a character at a time: it must see exactly what
ruamel's own round-trip scanner sees — the same tokens at the same marks, the same comments."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from app.config.defaults import default_config_text
from app.config.yamlscan import FastScanner
from tests.unit.config.hostile_texts import long_comment_line

TEXTS = [
    "theme: dark  # a comment\nagents: []\n",
    "# only a comment",
    "# first\n# second\n\n\n# after blank lines\ntheme: dark\n",
    "theme: dark\n# under a value\n  # indented\n# more\nagents: []\n",
    "agents:\n  - name: a   # trailing\n    # between keys\n    builtin: demo\n",
    "\ufefftheme: dark # after a byte order mark\n",
    "theme: dark # \ufeff\ufeffmarks inside\nlanguage: en\n",
    "theme: dark # \ufeffmarks at the very end\ufeff",
    "theme: dark\r\n# windows line ends\r\nagents: []\r\n",
    "theme: dark\r# old mac line ends\rlanguage: en\r",
    "theme: dark # next line\u2028language: en # para\u2029agents: []\n",
    "theme: dark # nel\x85language: en\n",
    "x: [1,\t2, # in a flow\n  3]   # after\n",
    "x: {a: 1,    # in a flow mapping\n     b: 2}\n",
    "x: |\n  # not a comment\n  text\n# a comment\n",
    'x: "# not a comment" # a comment\n',
    "theme: dark\n\n   \n# after spaces on blank lines\n",
    "x:     \n  - a    \n  -    b   # c\n",
    "a: 1\n#\n#\n",
    default_config_text(),
    long_comment_line(20_000),
    "theme: dark\n" + "# c\n" * 2000 + "agents: []\n",  # joined once after the value
    "theme: dark # same line\n" + "  # c\n" * 50 + "agents: []\n",
]


def _yaml(fast: bool) -> YAML:
    yaml = YAML(typ="rt")
    if fast:
        yaml.Scanner = FastScanner
    return yaml


def _mark(mark: Any) -> tuple[int, int, int]:
    return (mark.index, mark.line, mark.column)


def _comment(token: Any) -> Any:
    """What ruamel attached to a token: comment tokens (value and marks), nested."""
    if isinstance(token, list):
        return [_comment(item) for item in token]
    if token is None:
        return None
    return (token.value, _mark(token.start_mark), _mark(token.end_mark))


def _tokens(text: str, fast: bool) -> list[Any]:
    out = []
    for token in _yaml(fast).scan(text):
        attached = getattr(token, "_comment", None)
        out.append(
            (
                type(token).__name__,
                getattr(token, "value", None),
                _mark(token.start_mark),
                _mark(token.end_mark),
                _comment(attached),
            )
        )
    return out


def _round_trip(text: str, fast: bool) -> str:
    yaml = _yaml(fast)
    out = io.StringIO()
    yaml.dump(yaml.load(text), out)
    return out.getvalue()


def _outcome(read: Callable[[str, bool], Any], text: str, fast: bool) -> Any:
    """What `read` gives, or the error it raises: both scanners must fail alike too."""
    try:
        return read(text, fast)
    except Exception as err:
        return (type(err).__name__, str(err))


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_scanner_gives_ruamels_tokens_marks_and_comments(text: str) -> None:
    assert _outcome(_tokens, text, fast=True) == _outcome(_tokens, text, fast=False)


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_scanner_round_trips_comments_as_ruamel_does(text: str) -> None:
    assert _outcome(_round_trip, text, fast=True) == _outcome(_round_trip, text, fast=False)


PIECES = ["a: 1", "- b", "  ", "\t", "# c", " # d", "\n", "\r\n", "\ufeff", "[", "]", ",", "|"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_fast_scanner_agrees_with_ruamel_on_any_mix_of_comments_and_spaces(text: str) -> None:
    assert _outcome(_tokens, text, fast=True) == _outcome(_tokens, text, fast=False)
    assert _outcome(_round_trip, text, fast=True) == _outcome(_round_trip, text, fast=False)
