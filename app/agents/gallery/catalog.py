"""The catalog the page shows: each registry entry (or built-in one) with how it runs here,
what it still needs and which configured agents already run it, then the ACP programs found on
PATH. Pure: given what the registry, PATH, the installs and the configuration say."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePath

from app.agents.gallery.builtin import (
    KNOWN_PROGRAMS,
    LAUNCHER_NAMES,
    described,
    icon_for,
    well_known_rank,
)
from app.agents.gallery.detection import Found
from app.agents.gallery.installs import Installed
from app.agents.gallery.registry_file import BinaryTarget, PackageDist, RegistryAgent
from app.agents.gallery.versions import newer
from app.config.model import AgentDef
from app.i18n import _
from app.models.gallery import CatalogEntry, CatalogKind

PATH_PREFIX = "path:"
_DESCRIPTION_MAX = 200
_LAUNCHERS = ("agents.sh", "launcher.py")


@dataclass(frozen=True)
class Offer:
    """A catalog entry and what Add needs to write it."""

    entry: CatalogEntry
    agent: RegistryAgent | None = None  # None for a program on PATH
    package: PackageDist | None = None  # npx / uvx
    target: BinaryTarget | None = None  # binary, for this system
    found: Found | None = None  # path
    acp_args: tuple[str, ...] = ()  # path


@dataclass(frozen=True)
class Situation:
    """What the catalog is built from."""

    agents: tuple[RegistryAgent, ...]
    found: dict[str, Found]
    installed: dict[str, Installed]
    configured: tuple[AgentDef, ...]
    platform: str | None
    agents_folder: Path


def package_name(package: str) -> str:
    """`@scope/name@1.2.3` → `@scope/name`; `name==1.0` → `name` (what a command names)."""
    at = package.rfind("@")
    if at > 0:
        package = package[:at]
    for mark in ("==", ">=", "<=", "~=", "["):
        package = package.split(mark, 1)[0]
    return package


def kind_of(agent: RegistryAgent) -> CatalogKind:
    """npx first, then uvx (nothing to install beforehand), then a binary download."""
    dist = agent.distribution
    return "npx" if dist.npx else "uvx" if dist.uvx else "binary"


def one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _DESCRIPTION_MAX else line[: _DESCRIPTION_MAX - 1] + "…"


def offers(s: Situation) -> list[Offer]:
    """Registry entries then programs on PATH, the well-known ones first (stable otherwise)."""
    made = [_registry_offer(agent, s) for agent in s.agents]
    made += [_path_offer(known.program, known.acp_args, s) for known in KNOWN_PROGRAMS
             if known.acp_args is not None and known.program in s.found]  # fmt: skip
    return sorted(made, key=lambda o: (_rank(o), o.agent is None))


def _rank(offer: Offer) -> int:
    if offer.agent is not None:
        return well_known_rank(offer.agent.id)
    program = offer.entry.id.removeprefix(PATH_PREFIX)
    known = next(k for k in KNOWN_PROGRAMS if k.program == program)
    return min(well_known_rank(i) for i in known.ids)


def _registry_offer(agent: RegistryAgent, s: Situation) -> Offer:
    kind = kind_of(agent)
    needs: list[str] = []
    package = agent.distribution.npx if kind == "npx" else agent.distribution.uvx
    target = None
    installed = ""
    update = False
    if kind == "npx" and "npx" not in s.found:
        needs.append(_("npx (Node.js) is not on PATH"))
    elif kind == "uvx" and "uvx" not in s.found:
        needs.append(_("uvx (uv) is not on PATH"))
    elif kind == "binary":
        target = (agent.distribution.binary or {}).get(s.platform or "")
        done = s.installed.get(agent.id)
        installed = done.version if done else ""
        if not installed:  # once installed it runs, whatever the registry offers now
            needs.append(_binary_need(target))
        update = bool(installed and target and target.sha256 and newer(agent.version, installed))
    detected = next(
        (s.found[k.program].version for k in KNOWN_PROGRAMS
         if agent.id in k.ids and k.program in s.found),
        "",
    )  # fmt: skip
    entry = CatalogEntry(
        id=agent.id,
        name=agent.name,
        version=agent.version,
        description=one_line(described(agent)),
        icon=icon_for(agent.id, agent.name),
        kind=kind,
        installed=installed,
        detected=detected,
        needs=needs,
        added=[a.name for a in s.configured if _runs(a, agent, package, s)],
        update=update,
        repository=agent.repository,
        license=agent.license,
    )
    return Offer(entry, agent=agent, package=package, target=target)


def _binary_need(target: BinaryTarget | None) -> str:
    if target is None:
        return _("the registry has no download for this system")
    if not target.sha256:
        return _("the registry gives no sha256 for its download, so it cannot be checked")
    return _("it needs to be installed")


def _path_offer(program: str, acp_args: tuple[str, ...], s: Situation) -> Offer:
    found = s.found[program]
    known = next(k for k in KNOWN_PROGRAMS if k.program == program)
    command = " ".join([program, *acp_args])
    entry = CatalogEntry(
        id=PATH_PREFIX + program,
        name=known.name,
        description=_("Runs {command} from your PATH ({path}).").format(
            command=command, path=found.path
        ),
        icon=known.icon,
        kind="path",
        detected=found.version,
        added=[a.name for a in s.configured if _runs_program(a, program)],
    )
    return Offer(entry, found=found, acp_args=acp_args)


def _runs(a: AgentDef, agent: RegistryAgent, package: PackageDist | None, s: Situation) -> bool:
    command = a.command or []
    if package is not None:
        wanted = package_name(package.package)
        if any(package_name(arg) == wanted for arg in command if arg.startswith(wanted)):
            return True
    short = _launcher_name(command)
    if short is not None and LAUNCHER_NAMES.get(short) == agent.id:
        return True
    if command:
        try:
            program = Path(command[0]).resolve()
        except (OSError, RuntimeError):
            return False
        return program.is_relative_to((s.agents_folder / agent.id).resolve())
    return False


def _launcher_name(command: list[str]) -> str | None:
    """The short name a launcher command starts (`agents.sh claude`), if it is one."""
    for index, arg in enumerate(command[:-1]):
        if PurePath(arg).name in _LAUNCHERS or arg == "--launch-agent":
            return command[index + 1]
    return None


def _runs_program(a: AgentDef, program: str) -> bool:
    command = a.command or []
    if not command:
        return False
    first = command[0]
    if _launcher_name(command) == "run" and len(command) > 2:
        first = command[command.index("run") + 1]
    name = PurePath(first.replace("\\", "/")).name.lower()
    return name == program or name.rsplit(".", 1)[0] == program
