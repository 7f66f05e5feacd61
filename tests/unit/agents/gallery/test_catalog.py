"""The catalog built from the registry, PATH, the installs and the configuration; this
system's platform key; versions; the names Add picks and the items it writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agents.gallery.adding import agent_item, base_name, checked_cwd, chosen_name, unique_name
from app.agents.gallery.builtin import BUILTIN_AGENTS, ICONS, KNOWN_PROGRAMS
from app.agents.gallery.catalog import Situation, offers, package_name
from app.agents.gallery.detection import Found
from app.agents.gallery.installs import Installed
from app.agents.gallery.platforms import platform_key
from app.agents.gallery.registry_file import RegistryAgent
from app.agents.gallery.versions import newer, newest
from app.config.model import AgentDef
from app.core.errors import UserError
from app.i18n import set_language
from app.models.gallery import CatalogEntry

LAUNCHER = ["/app/scripts/agents.sh"]
SHA = "b" * 64


def binary(
    version: str = "2.0.0", sha256: str = SHA, system: str = "linux-x86_64"
) -> RegistryAgent:
    return RegistryAgent.model_validate(
        {
            "id": "tool",
            "name": "Tool",
            "version": version,
            "description": "Does\n  things.",
            "distribution": {
                "binary": {
                    system: {"archive": "https://e.com/t.tgz", "cmd": "./tool", "sha256": sha256,
                             "args": ["acp"], "env": {"TOOL_MODE": "acp"}}
                }
            },
        }
    )  # fmt: skip


def situation(tmp_path: Path, **changes: object) -> Situation:
    values: dict[str, object] = {
        "agents": BUILTIN_AGENTS,
        "found": {},
        "installed": {},
        "configured": (),
        "platform": "linux-x86_64",
        "agents_folder": tmp_path / "agents",
    }
    values.update(changes)
    return Situation(**values)  # type: ignore[arg-type]


def found(*programs: str) -> dict[str, Found]:
    return {p: Found(p, f"/usr/bin/{p}", f"{p} 1.0") for p in programs}


def agent(name: str, command: list[str]) -> AgentDef:
    return AgentDef(name=name, command=command)


def test_the_builtin_list_offline_is_well_known_first_and_says_what_is_missing(
    tmp_path: Path,
) -> None:
    entries = [o.entry for o in offers(situation(tmp_path))]
    assert [e.id for e in entries] == ["claude-acp", "codex-acp", "gemini", "opencode"]
    assert all(e.kind == "npx" for e in entries)
    assert entries[0].needs == ["npx (Node.js) is not on PATH"]
    assert entries[0].icon == "✳️"
    ready = [o.entry for o in offers(situation(tmp_path, found=found("npx")))]
    assert all(e.needs == [] for e in ready)


def test_programs_on_path_are_detected_and_offered_beside_their_registry_entry(
    tmp_path: Path,
) -> None:
    entries = [
        o.entry
        for o in offers(situation(tmp_path, found=found("npx", "gemini", "claude", "goose")))
    ]
    by_id = {e.id: e for e in entries}
    assert by_id["gemini"].detected == "gemini 1.0"
    assert by_id["claude-acp"].detected == "claude 1.0"  # the CLI its adapter drives
    assert by_id["path:gemini"].kind == "path" and by_id["path:gemini"].detected == "gemini 1.0"
    assert "path:claude" not in by_id  # claude itself does not speak ACP
    assert by_id["path:goose"].name == "goose"
    ids = [e.id for e in entries]
    assert ids.index("gemini") < ids.index("path:gemini") < ids.index("opencode")
    assert ids[-1] == "path:goose"


def test_added_names_the_agents_already_running_an_entry(tmp_path: Path) -> None:
    configured = (
        agent("claude", [*LAUNCHER, "claude"]),
        agent("gem", [*LAUNCHER, "run", "npx", "-y", "@google/gemini-cli@0.27.3", "--acp"]),
        agent("gem2", ["gemini", "--acp"]),
        agent("tool", [str(tmp_path / "agents" / "tool" / "2.0.0" / "tool")]),
        AgentDef(name="demo", builtin="demo"),
    )
    entries = {
        o.entry.id: o.entry
        for o in offers(
            situation(tmp_path, agents=(*BUILTIN_AGENTS, binary()), configured=configured,
                      found=found("gemini"))
        )
    }  # fmt: skip
    assert entries["claude-acp"].added == ["claude"]
    assert entries["gemini"].added == ["gem"]
    assert entries["path:gemini"].added == ["gem2"]
    assert entries["tool"].added == ["tool"]
    assert entries["codex-acp"].added == []


def test_a_binary_entry_says_install_update_or_why_not(tmp_path: Path) -> None:
    def entry(agent: RegistryAgent, **changes: object) -> CatalogEntry:
        [offer] = offers(situation(tmp_path, agents=(agent,), **changes))
        return offer.entry

    first = entry(binary())
    assert (first.kind, first.installed, first.update) == ("binary", "", False)
    assert first.needs == ["it needs to be installed"]
    assert first.description == "Does things."
    assert first.icon == "T"
    assert entry(binary(sha256="")).needs == [
        "the registry gives no sha256 for its download, so it cannot be checked"
    ]
    assert entry(binary(system="darwin-aarch64")).needs == [
        "the registry has no download for this system"
    ]
    old = Installed("1.9.0", tmp_path, tmp_path / "tool", ("acp",), {})
    updatable = entry(binary(), installed={"tool": old})
    assert (updatable.installed, updatable.update, updatable.needs) == ("1.9.0", True, [])
    same = Installed("2.0.0", tmp_path, tmp_path / "tool", ("acp",), {})
    assert entry(binary(), installed={"tool": same}).update is False
    gone = entry(binary(system="darwin-aarch64"), installed={"tool": same})
    assert (gone.needs, gone.update) == ([], False)  # installed: it runs, nothing to download


@pytest.mark.parametrize(
    ("system", "machine", "key"),
    [
        ("linux", "x86_64", "linux-x86_64"),
        ("linux", "aarch64", "linux-aarch64"),
        ("darwin", "arm64", "darwin-aarch64"),
        ("darwin", "x86_64", "darwin-x86_64"),
        ("win32", "AMD64", "windows-x86_64"),
        ("win32", "ARM64", "windows-aarch64"),
        ("linux", "riscv64", None),
        ("freebsd13", "amd64", None),
    ],
)
def test_the_platform_key(system: str, machine: str, key: str | None) -> None:
    assert platform_key(system, machine) == key


def test_versions_compare_as_numbers() -> None:
    assert newer("1.2.10", "1.2.9")
    assert newer("1.0.0", "1.0.0-beta")
    assert newer("1.0.1", "1.0")
    assert not newer("1.0", "1.0.1")
    assert not newer("0.9.2", "0.9.2")
    assert newest(["0.9.2", "0.10.0", "0.9.10"]) == "0.10.0"


@pytest.mark.parametrize(
    ("package", "name"),
    [("@scope/pkg@1.2.3", "@scope/pkg"), ("@scope/pkg", "@scope/pkg"), ("pkg@1", "pkg"),
     ("tool==1.0", "tool"), ("tool[extra]", "tool")],
)  # fmt: skip
def test_package_names_lose_their_version(package: str, name: str) -> None:
    assert package_name(package) == name


def test_names_are_derived_and_made_unique() -> None:
    assert base_name("claude-acp") == "claude"
    assert base_name("claude-code-acp") == "claude"
    assert base_name("path:gemini") == "gemini"
    assert base_name("qwen-code") == "qwen-code"
    assert base_name("-acp") == "acp"
    assert unique_name("claude", ["demo", "Claude", "claude-2"]) == "claude-3"
    assert unique_name("x" * 40, ["x" * 40]) == "x" * 38 + "-2"
    assert chosen_name("", "claude-acp", ["claude"]) == "claude-2"
    assert chosen_name(" mine ", "claude-acp", ["claude"]) == "mine"
    with pytest.raises(UserError, match="already named `demo`"):
        chosen_name("demo", "x", ["Demo"])
    with pytest.raises(UserError, match="not a valid agent name"):
        chosen_name("My Agent", "x", [])


def test_the_folder_must_exist(tmp_path: Path) -> None:
    assert checked_cwd("") is None
    assert checked_cwd(str(tmp_path)) == str(tmp_path)
    with pytest.raises(UserError, match="does not exist"):
        checked_cwd(str(tmp_path / "nope"))


def test_the_items_add_writes_for_each_kind(tmp_path: Path) -> None:
    [claude, _codex, gemini, _opencode] = offers(situation(tmp_path, found=found("npx")))
    assert agent_item(claude, "claude", None, LAUNCHER, None) == {
        "name": "claude", "title": "Claude Code", "icon": "✳️",
        "description": "Anthropic's coding agent, through its ACP adapter.",
        "command": [*LAUNCHER, "run", "npx", "-y", "@agentclientprotocol/claude-agent-acp"],
    }  # fmt: skip
    assert agent_item(gemini, "g", "/w", LAUNCHER, None)["command"][-2:] == [
        "@google/gemini-cli", "--acp"
    ]  # fmt: skip
    assert agent_item(gemini, "g", "/w", LAUNCHER, None)["cwd"] == "/w"
    uvx = RegistryAgent.model_validate(
        {"id": "py", "name": "Py", "distribution": {"uvx": {"package": "py-acp", "args": ["serve"],
                                                            "env": {"A": "1"}}}}
    )  # fmt: skip
    [offer] = offers(situation(tmp_path, agents=(uvx,)))
    item = agent_item(offer, "py", None, LAUNCHER, None)
    assert (item["command"], item["env"]) == (
        [*LAUNCHER, "run", "uvx", "py-acp", "serve"],
        {"A": "1"},
    )
    [tool] = offers(situation(tmp_path, agents=(binary(),)))
    with pytest.raises(UserError, match="not installed yet"):
        agent_item(tool, "tool", None, LAUNCHER, None)
    done = Installed("2.0.0", tmp_path, tmp_path / "tool", ("acp",), {"TOOL_MODE": "acp"})
    item = agent_item(tool, "tool", None, LAUNCHER, done)
    assert (item["command"], item["env"]) == ([str(tmp_path / "tool"), "acp"], {"TOOL_MODE": "acp"})
    path = next(
        o for o in offers(situation(tmp_path, found=found("opencode"))) if o.entry.kind == "path"
    )
    assert agent_item(path, "oc", None, LAUNCHER, None)["command"] == ["opencode", "acp"]


def test_here_and_all_are_never_made_nor_accepted_as_names() -> None:
    # Issue 29: @here and @all mention every member of a channel.
    assert unique_name("all", []) == "all-2"
    assert chosen_name("", "here-acp", []) == "here-2"
    with pytest.raises(UserError, match="mentions every member"):
        chosen_name("all", "x", [])


def test_the_builtin_icons_need_no_emoji_font() -> None:
    # Code points from U+1F000 on (🌀, 🪿, 🐙) are drawn by an emoji font only: a Linux desktop
    # without one showed an empty box in the welcome's "Add Codex CLI". Below it, the symbols
    # used are in DejaVu Sans, Segoe UI Symbol and Apple Symbols.
    icons = [*ICONS.values(), *(known.icon for known in KNOWN_PROGRAMS)]
    assert icons
    assert [icon for icon in icons if any(ord(c) >= 0x1F000 for c in icon)] == []


def test_our_agents_are_described_in_the_person_s_language_and_the_others_as_their_registry_says(
    tmp_path: Path,
) -> None:
    from_registry = [
        BUILTIN_AGENTS[0].model_copy(update={"description": "The registry's own words."}),
        binary(),
    ]
    set_language("fr")  # tests/conftest.py sets English back after each test
    entries = {o.entry.id: o.entry for o in offers(situation(tmp_path, agents=from_registry))}
    assert entries["claude-acp"].description == (
        "L’agent de code d’Anthropic, par son adaptateur ACP."
    )
    assert entries["tool"].description == "Does things."  # not ours: the registry's, one line
    offline = [o.entry for o in offers(situation(tmp_path))]
    assert all(e.description and not e.description.isascii() for e in offline), offline
