"""The ACP Registry's v1 file, read as untrusted input.

`{version, agents: [{id, name, version, description, icon, repository, license,
distribution: {npx | uvx | binary}}]}`; a binary distribution maps a platform key
(platforms.py) to a target `{archive, sha256, cmd, args, env}`. The file is capped in size and
entries; an entry that does not fit the format (or names an archive that is not https, or a
command outside its folder) is skipped with a log note, the others are kept. A file that is not
such a document at all is refused with a sentence (RegistryFileError).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from pathlib import PurePosixPath
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from app.i18n import _

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_AGENTS = 500
PLATFORM_KEYS = (
    "darwin-aarch64",
    "darwin-x86_64",
    "linux-aarch64",
    "linux-x86_64",
    "windows-aarch64",
    "windows-x86_64",
)
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")

Text = Annotated[str, StringConstraints(max_length=2000)]
Arg = Annotated[str, StringConstraints(max_length=4096)]
Args = Annotated[list[Arg], Field(max_length=64)]
Env = Annotated[dict[Annotated[str, StringConstraints(max_length=256)], Arg], Field(max_length=64)]


class RegistryFileError(Exception):
    """The file is not a registry file; the message is a sentence for the person."""


class _Strict(BaseModel):
    # Unknown fields are ignored: a later version of the format may add some.
    model_config = ConfigDict(extra="ignore", frozen=True)


class PackageDist(_Strict):
    """An npx or uvx distribution: the package (maybe `name@version`) and its arguments."""

    package: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    args: Args = Field(default_factory=list)
    env: Env = Field(default_factory=dict)


class BinaryTarget(_Strict):
    archive: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    cmd: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    sha256: str = ""  # mandatory to install (refused without it), not to be listed
    args: Args = Field(default_factory=list)
    env: Env = Field(default_factory=dict)


class Distribution(_Strict):
    npx: PackageDist | None = None
    uvx: PackageDist | None = None
    binary: dict[str, BinaryTarget] | None = None


class RegistryAgent(_Strict):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$", max_length=64)]
    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    version: Annotated[str, StringConstraints(max_length=64)] = ""
    description: Text = ""
    icon: Text = ""
    repository: Text = ""
    license: Annotated[str, StringConstraints(max_length=100)] = ""
    distribution: Distribution


def allowed_download(url: str) -> bool:
    """An archive (or a redirect) may be fetched from https, or plain http on this machine."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme == "https":
        return bool(parts.hostname)
    return parts.scheme == "http" and is_loopback(parts.hostname or "")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def safe_cmd(cmd: str) -> bool:
    """`cmd` names a file inside the unpacked folder: relative, no `..`, no drive."""
    path = PurePosixPath(cmd.replace("\\", "/"))
    return (
        not path.is_absolute()
        and ".." not in path.parts
        and ":" not in cmd
        and path.name not in ("", ".")
    )


def _target_problem(key: str, target: BinaryTarget) -> str:
    if key not in PLATFORM_KEYS:
        return f"unknown platform {key!r}"
    if not allowed_download(target.archive):
        return f"archive {target.archive!r} is neither https nor on this machine"
    if not safe_cmd(target.cmd):
        return f"cmd {target.cmd!r} leaves its folder"
    if target.sha256 and not _SHA256.fullmatch(target.sha256):
        return "sha256 is not 64 hexadecimal digits"
    return ""


def checked_agent(raw: object) -> RegistryAgent | None:
    """One entry of `agents`, or None (logged) when it does not fit the format."""
    try:
        agent = RegistryAgent.model_validate(raw)
    except ValidationError as err:
        name = raw.get("id") if isinstance(raw, dict) else None
        log.info("registry entry %r skipped: %s", name, err.errors()[0].get("msg"))
        return None
    dist = agent.distribution
    targets = {}
    for key, target in (dist.binary or {}).items():
        problem = _target_problem(key, target)
        if problem:
            log.info("registry entry %r: binary target %s skipped: %s", agent.id, key, problem)
        else:
            targets[key] = target
    dist = dist.model_copy(update={"binary": targets or None})
    if dist.npx is None and dist.uvx is None and dist.binary is None:
        log.info("registry entry %r skipped: no distribution Sidekicks can run", agent.id)
        return None
    return agent.model_copy(update={"distribution": dist})


def parse_registry(data: bytes) -> list[RegistryAgent]:
    """The agents of a registry file (bad entries skipped); RegistryFileError for a bad file."""
    if len(data) > MAX_FILE_BYTES:
        raise RegistryFileError(
            _("the registry file is larger than {size} MiB").format(size=MAX_FILE_BYTES >> 20)
        )
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise RegistryFileError(_("the registry file is not JSON")) from None
    if not isinstance(document, dict) or not isinstance(document.get("agents"), list):
        raise RegistryFileError(_("the registry file has no list of agents"))
    raw_agents = document["agents"]
    if len(raw_agents) > MAX_AGENTS:
        log.info("registry lists %d agents; the first %d are kept", len(raw_agents), MAX_AGENTS)
    agents: list[RegistryAgent] = []
    seen: set[str] = set()
    for raw in raw_agents[:MAX_AGENTS]:
        agent = checked_agent(raw)
        if agent is not None and agent.id not in seen:
            seen.add(agent.id)
            agents.append(agent)
    return agents
