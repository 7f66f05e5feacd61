"""Edits of the configuration's text that keep what a person wrote: comments, order, quotes,
indentation.

The app writes the YAML for the person in three places (the Preferences form, the gallery's Add
and Remove), and the file stays theirs: ruamel.yaml's round-trip mode keeps comments, key order
and quotes; the indentation is read from the text itself, since ruamel writes back the whole
document with one indentation. Removing an agent cuts its lines out of the text instead of
re-emitting the document: ruamel files the comment lines between two items under the item above,
and would take the next item's heading comment away with it.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass
from io import StringIO
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import ScalarString

from app.config.yamlbudget import BudgetComposer, OverBudget
from app.config.yamlscan import FastScanner
from app.core.errors import UserError
from app.i18n import _

_KEY_ONLY = re.compile(r"^( *)[^\s#-][^#]*:\s*(#.*)?$")  # `key:` with its value on the next lines
_DASH = re.compile(r"^( *)- ")
_KEY = re.compile(r"^( *)[^\s#-][^:#]*:(\s|$)")


@dataclass(frozen=True)
class _Indent:
    mapping: int = 2
    sequence: int = 4  # the item's content column, from its parent key's
    offset: int = 2  # the dash's column, from its parent key's


def _indent_of(text: str) -> _Indent:
    """The first nested mapping and the first block sequence under a key show the file's style."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    mapping: int | None = None
    offset: int | None = None
    for above, below in itertools.pairwise(lines):
        parent = _KEY_ONLY.match(above)
        if parent is None:
            continue
        base = len(parent.group(1))
        dash, key = _DASH.match(below), _KEY.match(below)
        if dash is not None and offset is None:
            offset = len(dash.group(1)) - base
        elif key is not None and mapping is None and len(key.group(1)) > base:
            mapping = len(key.group(1)) - base
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = 2 if offset is None else max(offset, 0)
    return _Indent(mapping=mapping, sequence=max(offset + 2, mapping), offset=offset)


def _yaml(indent: _Indent) -> YAML:
    yaml = YAML(typ="rt")
    # The validator's scanner and composer: linear on long lines, and refusing alias bombs and
    # deep nesting (the text may be one the validator refused, still in the file).
    yaml.Scanner, yaml.Composer = FastScanner, BudgetComposer
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long line the person wrote
    yaml.indent(mapping=indent.mapping, sequence=indent.sequence, offset=indent.offset)
    return yaml


def _load(text: str) -> tuple[YAML, CommentedMap]:
    yaml = _yaml(_indent_of(text))
    try:
        root = yaml.load(text)
    except OverBudget:
        raise UserError(
            _("the configuration is too large or nested too deep to edit: fix it first")
        ) from None
    except Exception as err:  # YAMLError, and the plain errors ruamel raises on odd input
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise UserError(
            _("the configuration is not valid YAML ({error}): fix it in the editor first").format(
                error=first
            )
        ) from None
    if root is None:
        return yaml, CommentedMap()  # an empty file, or only comments: start a mapping
    if not isinstance(root, CommentedMap):
        raise UserError(
            _("the configuration is not a mapping of settings (`key: value` lines): fix it first")
        )
    return yaml, root


def _dump(yaml: YAML, root: CommentedMap, text: str) -> str:
    if not root and text.strip():
        # An empty mapping with comments: ruamel would print `{}` and drop them.
        return text
    out = StringIO()
    yaml.dump(root, out)
    return out.getvalue()


def _kept_style(old: Any, new: object) -> object:
    """A new string written with the old one's quotes (`icon: "🧪"` stays double-quoted)."""
    if isinstance(old, ScalarString) and isinstance(new, str) and not isinstance(new, ScalarString):
        return type(old)(new)
    return new


# The settings' order in the default file: a new one goes after the one before it there.
_ORDER = ("theme", "language", "notifications", "limits", "checkpoints", "agents")


def _insert_at(mapping: CommentedMap, key: str, value: object) -> None:
    """A new top-level setting goes where the default file has it (`language` after `theme`),
    an unknown one before `agents:` (usually the long last part), else at the end."""
    if key in mapping:
        mapping[key] = _kept_style(mapping[key], value)
        return
    keys = list(mapping)
    before = [k for k in _ORDER[: _ORDER.index(key)] if k in keys] if key in _ORDER else []
    after = [k for k in _ORDER[_ORDER.index(key) + 1 :] if k in keys] if key in _ORDER else []
    if before:
        previous = max(before, key=keys.index)
        at = keys.index(previous) + 1
        if at == len(keys):
            _append(mapping, key, value)
            return
        source = _last_leaf_of(mapping, previous)
        mapping.insert(at, key, value)
        if source is not None:
            _move_lines_after(source, (mapping, key))  # right under the one before it
    elif after or "agents" in keys:
        mapping.insert(keys.index(min(after, key=keys.index) if after else "agents"), key, value)
    else:
        _append(mapping, key, value)


def _last_leaf_of(mapping: CommentedMap, key: Any) -> tuple[CommentedMap, Any] | None:
    """`_last_leaf` of `key`'s value, or `key` itself when its value is a scalar."""
    value = mapping[key]
    if isinstance(value, CommentedMap) and value and not value.fa.flow_style():
        return _last_leaf(value)
    if isinstance(value, CommentedSeq) and value and not value.fa.flow_style():
        return None
    return mapping, key


def _append(mapping: CommentedMap, key: str, value: object) -> None:
    """`key` added last, after the last key's own line: the blank and comment lines that followed
    that key (ruamel keeps them with it) now follow the new one, so the section stays together."""
    last = _last_leaf(mapping)
    mapping[key] = value
    if last is not None:
        _move_lines_after(last, (mapping, key))


def _move_lines_after(source: tuple[CommentedMap, Any], target: tuple[CommentedMap, Any]) -> None:
    """The comment and blank lines under `source`'s key move under `target`'s (its inline
    comment stays)."""
    owner, leaf = source
    entry = owner.ca.items.get(leaf)
    token = entry[2] if entry is not None and len(entry) > 2 else None
    if token is None or "\n" not in token.value:
        return
    own, _newline, after = token.value.partition("\n")
    if not after:
        return
    moved = copy.copy(token)
    moved.value = "\n" + after
    if own.strip():
        token.value = own + "\n"
    else:
        entry[2] = None
    target_owner, target_key = target
    target_owner.ca.items[target_key] = [None, None, moved, None]


def _last_leaf(mapping: CommentedMap) -> tuple[CommentedMap, Any] | None:
    """The block mapping and key holding the last scalar of `mapping` (where ruamel files the
    comment lines after it), or None when it ends with a block list (left as it is)."""
    return _last_leaf_of(mapping, list(mapping)[-1]) if mapping else None


def _plain_to_rt(value: object) -> object:
    if isinstance(value, dict):
        out = CommentedMap()
        for key, item in value.items():
            out[key] = _plain_to_rt(item)
        return out
    if isinstance(value, list | tuple):
        seq = CommentedSeq(_plain_to_rt(item) for item in value)
        if all(not isinstance(item, dict | list | tuple) for item in value):
            seq.fa.set_flow_style()  # `command: [npx, -y, pkg]`, as the default file writes it
        return seq
    return value


def with_values(text: str, values: dict[str, object]) -> str:
    """`text` with these settings set: top-level keys and dotted ones (`limits.maxRunningAgents`).

    Existing keys keep their place, comments and quotes; new ones are added before `agents:`
    (a new section with its key), or at the end of their section.
    """
    yaml, root = _load(text)
    for dotted, value in values.items():
        *parents, leaf = dotted.split(".")
        mapping = root
        for depth, part in enumerate(parents):
            child = mapping.get(part)
            if child is None:
                child = CommentedMap()
                if depth == 0:
                    _insert_at(mapping, part, child)
                else:
                    mapping[part] = child
            elif not isinstance(child, CommentedMap):
                raise UserError(
                    _("`{key}` is not a section of settings: it cannot hold `{leaf}`").format(
                        key=".".join(parents[: depth + 1]), leaf=leaf
                    )
                )
            mapping = child
        rt_value = _plain_to_rt(value)
        if mapping is root:
            _insert_at(root, leaf, rt_value)
        elif leaf in mapping:
            mapping[leaf] = _kept_style(mapping[leaf], rt_value)
        else:
            _append(mapping, leaf, rt_value)
    return _dump(yaml, root, text)


def with_agent(text: str, agent: dict[str, object]) -> str:
    """`text` with `agent` appended to `agents:` (the list is created when absent), block style."""
    yaml, root = _load(text)
    item = _plain_to_rt(agent)
    agents = root.get("agents")
    if agents is None:
        agents = CommentedSeq()
        root["agents"] = agents
    elif not isinstance(agents, CommentedSeq):
        raise UserError(_("`agents` is not a list: fix it in the editor first"))
    if agents.fa.flow_style():
        agents.fa.set_block_style()  # `agents: []` grows into a block list
    above = agents[-1] if agents and isinstance(agents[-1], CommentedMap) else None
    source = _last_leaf(above) if above is not None else None
    agents.append(item)
    target = _last_leaf(item) if isinstance(item, CommentedMap) else None
    if source is not None and target is not None:
        _move_lines_after(source, target)  # the new agent follows the last one directly
    return _dump(yaml, root, text)


def without_agent(text: str, name: str) -> str:
    """`text` without the agent named `name`: its lines and the comment lines just above it."""
    yaml, root = _load(text)
    agents = root.get("agents")
    names = [
        item.get("name") if isinstance(item, CommentedMap) else None
        for item in (agents if isinstance(agents, CommentedSeq) else [])
    ]
    if name not in names:
        raise UserError(_("no agent is named {name} in the configuration").format(name=name))
    assert isinstance(agents, CommentedSeq)
    index = names.index(name)
    if agents.fa.flow_style() or len(agents) == 1:
        del agents[index]
        if not agents:
            agents.fa.set_flow_style()  # `agents: []`, not a key without a value
        return _dump(yaml, root, text)
    return _cut_item(text, agents, index)


def _cut_item(text: str, agents: CommentedSeq, index: int) -> str:
    lines = text.splitlines(keepends=True)
    start = agents.lc.item(index)[0]  # the item's first key; its dash is on it or above
    while start > 0 and _DASH.match(lines[start]) is None:
        start -= 1
    dash = _dash_column(lines[start])
    if index + 1 < len(agents):
        end = agents.lc.item(index + 1)[0]
    else:
        end = start + 1
        while end < len(lines) and (_blank_or_comment(lines[end]) or _column(lines[end]) > dash):
            end += 1
    # Comment and blank lines at the end, at the dash's column or left of it, are outside the
    # item (a heading for what follows): they stay.
    while end > start + 1 and (not lines[end - 1].strip() or _column(lines[end - 1]) <= dash):
        end -= 1
    # Comment lines right above the item, at its column, are its own.
    while (
        start > 0
        and lines[start - 1].lstrip().startswith("#")
        and _column(lines[start - 1]) == dash
    ):
        start -= 1
    return "".join(lines[:start] + lines[end:])


def _dash_column(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _column(line: str) -> int:
    return len(line) - len(line.lstrip(" ")) if line.strip() else 1 << 30


def _blank_or_comment(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")
