"""Validation of configuration text: problems (invalid) and warnings (works, but look), each at
the 1-based line and column of the offending key or value, in words a person understands.

`check_text` does the work and lets a bug raise, so that tests see it; whatever text it is given,
it should return entries whose positions lie inside that text. `validate_text`, which the app
calls, turns such a bug into a problem (and logs it) rather than take the editor down.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from app.config.custom_errors import Custom, custom_kind, custom_message
from app.config.limits import text_too_large, utf8_size_over_limit
from app.config.model import AGENT_NAME_PATTERN, Config
from app.config.yamldoc import (
    clamp,
    first_content_line,
    key_position,
    node_position,
    parse,
    value_position,
)
from app.core.folders import folder_missing
from app.i18n import _
from app.models.problems import Problem
from app.paths import find_program, resolve_cwd

log = logging.getLogger(__name__)


@dataclass
class Validation:
    entries: list[Problem] = field(default_factory=list)
    config: Config | None = None  # set when there is no problem (warnings allowed)
    not_a_mapping: bool = False  # YAML whose top level is not a mapping: Open refuses such a file

    @property
    def valid(self) -> bool:
        return self.config is not None

    @property
    def problems(self) -> list[Problem]:
        return [p for p in self.entries if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.entries if p.warning]


def validate_text(text: str, base_dir: Path | None = None) -> Validation:
    """`check_text`, where a bug in the checks becomes a problem at 1:1 instead of a crash."""
    try:
        return check_text(text, base_dir)
    except Exception as err:  # a bug here must never take the editor down with it
        log.exception("checking the configuration failed")
        message = _("the configuration could not be checked: {error}").format(error=err)
        return Validation([Problem(line=1, column=1, message=message)])


def check_text(text: str, base_dir: Path | None = None) -> Validation:
    """The problems and warnings of `text`; a relative `cwd` is looked up in `base_dir` (default:
    the home folder). Raises only on a bug of its own."""
    base_dir = base_dir or Path.home()
    size = utf8_size_over_limit(text)
    if size is not None:
        return Validation([Problem(line=1, column=1, message=text_too_large(size))])
    parsed = parse(text)
    if parsed.problem is not None:
        return Validation([parsed.problem])
    root, data = parsed.root, parsed.data
    if data is None:
        message = _("the configuration is empty: it needs at least an `agents:` list")
        return Validation([Problem(line=1, column=1, message=message)], not_a_mapping=True)
    if not isinstance(data, dict):
        line, col = node_position(root) or (first_content_line(text), 1)
        message = _("the configuration must be a mapping (keys such as `agents:` and `theme:`)")
        return Validation([_at(text, line, col, message)], not_a_mapping=True)

    entries: list[Problem] = []
    entries += _duplicate_names(text, root, data)
    entries += _environment_warnings(text, root, data, base_dir)
    extras: list[tuple[Any, ...]] = []
    try:
        config: Config | None = Config.model_validate(data)
    except ValidationError as err:
        config = None
        for detail in err.errors(include_url=False):
            if detail["type"] == Custom.DUPLICATE_NAME:
                continue  # reported above, each at its own position
            if detail["type"] == "extra_forbidden":
                extras.append(tuple(detail["loc"]))
            entries.append(_from_pydantic(text, root, detail))

    if config is None and not any(not e.warning for e in entries):
        # Only unknown keys: they are warnings, the configuration works without them.
        config = _validate_without(data, extras)
        if config is None:
            entries.append(Problem(line=1, column=1, message=_("the configuration is invalid")))
    if any(not e.warning for e in entries):
        config = None
    entries.sort(key=lambda p: (p.line, p.column, p.warning))
    return Validation(entries, config)


def _validate_without(data: Any, extras: list[tuple[Any, ...]]) -> Config | None:
    for loc in extras:
        container = data
        for part in loc[:-1]:
            container = container[part]
        container.pop(loc[-1], None)
    try:
        return Config.model_validate(data)
    except ValidationError:
        return None


def _at(text: str, line: int, column: int, message: str, warning: bool = False) -> Problem:
    line, column = clamp(text, line, column)
    return Problem(line=line, column=column, message=message, warning=warning)


def _locate(root: Any, loc: tuple[Any, ...], at_key: bool) -> tuple[tuple[int, int], str]:
    """The position of the node `loc` names and the name of the last key on the way.

    Parts of `loc` that are not in the document (pydantic's union tags, a missing key) keep the
    position on the container, which is where a missing key belongs."""
    node = root
    pos = node_position(root) or (1, 1)
    name = ""
    last = len(loc) - 1
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part in node:
            found = key_position(node, part) if at_key and i == last else None
            pos = found or value_position(node, part) or pos
            node, name = node[part], str(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            pos = value_position(node, part) or pos
            node = node[part]
            name = f"{name}\0{part + 1}" if name else name  # "item N of `name`", see _message
        elif isinstance(part, str) and not part.startswith(("function-", "literal[")):
            name = part
    return pos, name


def _from_pydantic(text: str, root: Any, detail: ErrorDetails) -> Problem:
    kind = detail["type"]
    loc = tuple(detail["loc"])
    ctx = detail.get("ctx") or {}
    if kind == Custom.EMPTY_VALUE:
        loc = (*loc, ctx.get("key", ""))
    elif detail.get("input", 0) is None and kind.endswith("_type"):
        # `KEY:` with nothing after it, inside a mapping of values (env, headers): say so.
        kind, ctx = Custom.EMPTY_VALUE, {"key": loc[-1] if loc else ""}
    at_key = kind in ("extra_forbidden", Custom.EMPTY_VALUE)
    # Both alternatives given: point at the second one, which is the one to remove.
    both: dict[str, str] = {Custom.COMMAND_AND_BUILTIN: "builtin", Custom.MCP_COMMAND_OR_URL: "url"}
    if kind in both:
        item = _get(root, loc)
        second = both[kind]
        if isinstance(item, dict) and "command" in item and second in item:
            loc, at_key = (*loc, second), True
    (line, col), name = _locate(root, loc, at_key)
    message = _message(kind, name, detail, ctx)
    return _at(text, line, col, message, warning=kind == "extra_forbidden")


def _get(root: Any, loc: tuple[Any, ...]) -> Any:
    node = root
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _message(kind: str, name: str, detail: ErrorDetails, ctx: dict[str, Any]) -> str:
    custom = custom_kind(kind)
    if custom is not None:
        return custom_message(custom, ctx)
    if "\0" in name:
        key, number = name.split("\0", 1)
        field = _("item {number} of {list}").format(number=number, list=f"`{key}`")
    else:
        field = f"`{name}`" if name else _("this value")
    must_be_mapping = _("{field} must be a mapping (`key: value` lines)")
    cannot_be_empty = _("{field} cannot be empty")
    simple = {
        "missing": _("{field} is missing"),
        "extra_forbidden": _("unknown key {field}: it is ignored"),
        "string_type": _("{field} must be text"),
        "int_type": _("{field} must be a whole number"),
        "bool_type": _("{field} must be true or false"),
        "list_type": _("{field} must be a list (lines starting with `- `)"),
        "dict_type": must_be_mapping,
        "model_type": must_be_mapping,
        "model_attributes_type": must_be_mapping,
        "string_too_short": cannot_be_empty,
        "too_short": _("{field} needs at least one item"),
    }
    if kind in simple:
        return simple[kind].format(field=field)
    if kind == "literal_error":
        # pydantic says "'a', 'b' or 'c'" in English: list the values without a conjunction.
        values = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        expected = ", ".join(f"`{v}`" for v in values) or str(ctx.get("expected", ""))
        return _("{field} must be one of: {expected}").format(field=field, expected=expected)
    if kind == "greater_than_equal":
        return _("{field} must be at least {minimum}").format(field=field, minimum=ctx.get("ge"))
    if kind == "string_too_long":
        return _("{field} is too long (at most {count} characters)").format(
            field=field, count=ctx.get("max_length")
        )
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == AGENT_NAME_PATTERN:
        if not detail.get("input"):
            return cannot_be_empty.format(field=field)
        return _(
            "{value} is not a valid agent name: use lowercase letters, digits, - and _, "
            "starting with a letter or digit"
        ).format(value=f"`{detail.get('input')}`")
    if kind == "value_error":
        # The reason is an English text marked with N_ (app/config/durations.py): translate it.
        reason = str(ctx.get("error", detail["msg"]))
        return f"{field} {_(reason)}"
    return f"{field}: {detail['msg']}"


def _agents(root: Any, data: dict[str, Any]) -> list[tuple[int, Any, dict[str, Any]]]:
    """(index, node, plain data) of each agent entry that is a mapping."""
    agents, nodes = data.get("agents"), root.get("agents") if isinstance(root, dict) else None
    if not isinstance(agents, list) or not isinstance(nodes, list):
        return []
    return [(i, nodes[i], a) for i, a in enumerate(agents) if isinstance(a, dict)]


def _duplicate_names(text: str, root: Any, data: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, str] = {}
    for _i, node, agent in _agents(root, data):
        name = agent.get("name")
        if not isinstance(name, str):
            continue
        first = seen.get(name.lower())
        if first is None:
            seen[name.lower()] = name
            continue
        line, col = value_position(node, "name") or node_position(node) or (1, 1)
        message = custom_message(Custom.DUPLICATE_NAME, {"first": f"`{first}`"})
        out.append(_at(text, line, col, message))
    return out


def _environment_warnings(
    text: str, root: Any, data: dict[str, Any], base_dir: Path
) -> list[Problem]:
    out: list[Problem] = []
    for _i, node, agent in _agents(root, data):
        cwd = agent.get("cwd")
        cwd_path = resolve_cwd(cwd, base_dir) if isinstance(cwd, str) and cwd else None
        if cwd_path is not None and not cwd_path.is_dir():
            line, col = value_position(node, "cwd") or (1, 1)
            message = folder_missing(f"`{cwd_path}`")
            out.append(_at(text, line, col, message, warning=True))
        out += _missing_folders(text, node, agent.get("folders"), base_dir)
        command = agent.get("command")
        if isinstance(command, list) and command and isinstance(command[0], str) and command[0]:
            env = agent.get("env")
            env = env if isinstance(env, dict) else {}
            path_var = str(env.get("PATH", os.environ.get("PATH", "")))
            if find_program(command[0], cwd_path or base_dir, path_var) is None:
                seq = node.get("command") if isinstance(node, dict) else None
                line, col = value_position(seq, 0) or value_position(node, "command") or (1, 1)
                message = _("{program} was not found on PATH: the agent will not start").format(
                    program=f"`{command[0]}`"
                )
                out.append(_at(text, line, col, message, warning=True))
    return out


def _missing_folders(text: str, node: Any, folders: Any, base_dir: Path) -> list[Problem]:
    """A `folders:` entry that is not a folder is a warning, as for `cwd`."""
    if not isinstance(folders, list):
        return []
    seq = node.get("folders") if isinstance(node, dict) else None
    out = []
    for index, folder in enumerate(folders):
        if not isinstance(folder, str) or not folder:
            continue
        path = resolve_cwd(folder, base_dir)
        if not path.is_dir():
            line, col = value_position(seq, index) or value_position(node, "folders") or (1, 1)
            out.append(_at(text, line, col, folder_missing(f"`{path}`"), warning=True))
    return out
