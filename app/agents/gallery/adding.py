"""What Add writes into the YAML for a catalog entry: the command for its kind, its env, title,
icon and description, a unique name and the folder."""

from __future__ import annotations

import re
from pathlib import Path

from app.agents.gallery.catalog import PATH_PREFIX, Offer
from app.agents.gallery.installs import Installed
from app.config.custom_errors import Custom, custom_message
from app.config.model import AGENT_NAME_MAX
from app.core.errors import UserError
from app.i18n import _
from app.models.mentions import EVERY_MEMBER

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_NOT_NAME = re.compile(r"[^a-z0-9_-]+")


def base_name(entry_id: str) -> str:
    """`claude-acp` → `claude`, `path:gemini` → `gemini`, `Qwen Code` → `qwen-code`."""
    name = entry_id.removeprefix(PATH_PREFIX).lower()
    for suffix in ("-code-acp", "-acp", "-cli"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    name = _NOT_NAME.sub("-", name).strip("-_")
    if not name or not name[0].isalnum():
        name = "agent"
    return name[:AGENT_NAME_MAX].rstrip("-_")


def unique_name(base: str, taken: list[str]) -> str:
    """`base`, or `base-2`, `base-3`… whichever no agent has (ignoring case); never `here` or
    `all` (@here and @all mention every member)."""
    used = {name.lower() for name in taken} | set(EVERY_MEMBER)
    if base not in used:
        return base
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = base[: AGENT_NAME_MAX - len(suffix)] + suffix
        if candidate not in used:
            return candidate
        number += 1


def chosen_name(name: str, entry_id: str, taken: list[str]) -> str:
    """The name asked for (checked), or a unique one made from the entry when it is ""."""
    name = name.strip()
    if not name:
        return unique_name(base_name(entry_id), taken)
    if not _NAME.fullmatch(name) or len(name) > AGENT_NAME_MAX:
        raise UserError(
            _(
                "{name} is not a valid agent name: use lowercase letters, digits, - and _"
                " (at most {count} characters), starting with a letter or digit"
            ).format(name=f"`{name}`", count=AGENT_NAME_MAX)
        )
    if name in EVERY_MEMBER:
        plain = {"name": f"`{name}`", "plain": name}
        raise UserError(custom_message(Custom.RESERVED_NAME, plain))
    if name.lower() in {t.lower() for t in taken}:
        raise UserError(_("an agent is already named {name}").format(name=f"`{name}`"))
    return name


def checked_cwd(cwd: str) -> str | None:
    """The folder as given (None for ""), refused unless it is an existing folder."""
    if not cwd.strip():
        return None
    path = Path(cwd).expanduser()
    if not path.is_dir():
        raise UserError(_("the folder {path} does not exist").format(path=cwd))
    return cwd


def agent_item(
    offer: Offer, name: str, cwd: str | None, launcher: list[str], installed: Installed | None
) -> dict[str, object]:
    """The agent's item in `agents:`, in the order a person would write it."""
    entry = offer.entry
    env: dict[str, str] = {}
    if entry.kind in ("npx", "uvx"):
        assert offer.package is not None
        runner = ["npx", "-y"] if entry.kind == "npx" else ["uvx"]
        command = [*launcher, "run", *runner, offer.package.package, *offer.package.args]
        env = dict(offer.package.env)
    elif entry.kind == "binary":
        if installed is None:
            raise UserError(
                _("{name} is not installed yet: install it first").format(name=entry.name)
            )
        command = [str(installed.program), *installed.args]
        env = dict(installed.env)
    else:
        assert offer.found is not None
        command = [offer.found.program, *offer.acp_args]
    item: dict[str, object] = {"name": name, "title": entry.name}
    if entry.icon:
        item["icon"] = entry.icon
    if entry.description:
        item["description"] = entry.description
    item["command"] = command
    if env:
        item["env"] = env
    if cwd is not None:
        item["cwd"] = cwd
    return item
