"""YAML read in round-trip mode, so that every node knows its line and column."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from app.config.limits import MAX_ALIASED_VALUES, MAX_DEPTH, MAX_VALUES
from app.config.yaml_errors import explain, unreadable
from app.config.yamlbudget import BudgetComposer, OverBudget, TooDeep, TooManyAliasedValues
from app.config.yamlscan import FastScanner
from app.i18n import _
from app.models.problems import Problem


@dataclass
class Parsed:
    root: Any  # the ruamel node tree (CommentedMap …), or None when the text is not YAML
    data: Any  # the same as plain Python values
    problem: Problem | None


def parse(text: str) -> Parsed:
    yaml = YAML(typ="rt")
    yaml.Scanner, yaml.Composer = FastScanner, BudgetComposer
    try:
        root = yaml.load(text)
    except OverBudget as err:
        return Parsed(None, None, _budget_problem(err, text))
    except MarkedYAMLError as err:
        return Parsed(None, None, _syntax_problem(err, text))
    except YAMLError as err:  # not marked: point at the start
        detail = str(err).splitlines()[0] if str(err) else type(err).__name__
        return Parsed(None, None, Problem(line=1, column=1, message=unreadable(), detail=detail))
    except Exception as err:
        # ruamel raises plain errors on a few pathological inputs (`!!int` on text, `%YAML 1.3`,
        # deep nesting): still a problem in the text, never a crash of the editor.
        detail = str(err) or type(err).__name__
        return Parsed(None, None, Problem(line=1, column=1, message=unreadable(), detail=detail))
    return Parsed(root, to_plain(root), None)


def _budget_problem(err: OverBudget, text: str) -> Problem:
    line, column = clamp(text, err.line + 1, err.column + 1)
    if isinstance(err, TooManyAliasedValues):
        message = _(
            "aliases repeat too many values here: {alias} brings them past {limit}, "
            "more than Sidekicks expands"
        ).format(alias=f"`*{err.alias}`", limit=MAX_ALIASED_VALUES)
    elif isinstance(err, TooDeep):
        message = _(
            "this value is nested more than {limit} levels deep, more than Sidekicks reads"
        ).format(limit=MAX_DEPTH)
    else:
        message = _(
            "too many values: this one passes {limit}, the most Sidekicks reads in a configuration"
        ).format(limit=MAX_VALUES)
    return Problem(line=line, column=column, message=message)


def _syntax_problem(err: MarkedYAMLError, text: str) -> Problem:
    explained = explain(err, text)
    mark = err.problem_mark or err.context_mark
    if explained.use_context_mark and err.context_mark is not None:
        mark = err.context_mark  # a key without its ':' is noticed only on the next line
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if err.context_mark is not None and line > last_content_line(text):
        # The parser ran off the end (an unclosed quote or bracket): point where it was opened.
        line, column = err.context_mark.line + 1, err.context_mark.column + 1
    line, column = clamp(text, line, column)
    return Problem(line=line, column=column, message=explained.message, detail=explained.detail)


def last_content_line(text: str) -> int:
    lines = text.split("\n")
    return max((i + 1 for i, s in enumerate(lines) if s.strip()), default=1)


def first_content_line(text: str) -> int:
    for i, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return i + 1
    return 1


def clamp(text: str, line: int, column: int) -> tuple[int, int]:
    """Keeps a position inside the text (ruamel sometimes points one past the end)."""
    lines = text.split("\n")
    line = max(1, min(line, len(lines)))
    column = max(1, min(column, len(lines[line - 1]) + 1))
    return line, column


def to_plain(node: Any) -> Any:
    """ruamel's node types (CommentedMap, ScalarInt, …) as plain dict/list/str/int/float/bool."""
    if isinstance(node, CommentedMap | dict):
        return {_valid_unicode(str(k)): to_plain(v) for k, v in node.items()}
    if isinstance(node, CommentedSeq | list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return _valid_unicode(str(node))
    if isinstance(node, datetime.date | datetime.datetime):
        return node.isoformat()
    return str(node)


def _valid_unicode(text: str) -> str:
    """Escaped surrogates (`"\\ud83d\\ude00"`) come out of ruamel as lone surrogates: pair them
    up, and replace any that stay alone, so the text can be encoded anywhere later."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _pair(value: Any) -> tuple[int, int] | None:
    # ruamel's position records are sometimes missing (tagged nodes): no position, no crash.
    if isinstance(value, list | tuple) and len(value) >= 2:
        return int(value[0]) + 1, int(value[1]) + 1
    return None


def key_position(node: Any, key: Any) -> tuple[int, int] | None:
    if isinstance(node, CommentedMap) and key in node:
        try:
            return _pair(node.lc.key(key))
        except (KeyError, TypeError, AttributeError):
            return None
    return None


def value_position(node: Any, key: Any) -> tuple[int, int] | None:
    try:
        if isinstance(node, CommentedMap) and key in node:
            return _pair(node.lc.value(key))
        if isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            return _pair(node.lc.item(key))
    except (KeyError, TypeError, AttributeError, IndexError):
        return None
    return None


def node_position(node: Any) -> tuple[int, int] | None:
    if isinstance(node, CommentedMap | CommentedSeq) and node.lc.line is not None:
        return node.lc.line + 1, node.lc.col + 1
    return None
