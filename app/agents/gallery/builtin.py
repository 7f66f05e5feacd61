"""What the app knows without the registry: a short list of the well-known agents for the
first offline start, the programs to look for on PATH, and an icon per agent (registry icons
are SVG files on a web server, which the window's Content-Security-Policy never loads). The
icons are symbols of the text fonts every desktop has (DejaVu Sans, Segoe UI Symbol, Apple
Symbols), not emoji: a Linux desktop without an emoji font drew 🌀 as an empty box.

The ids, packages and commands are facts (the ACP Registry's entries, scripts/agents.sh); the
descriptions are our own words, in the person's language (`described`): the catalog shows them
for these agents, the registry's (English) for the others. goose has no npm or PyPI package
and its registry entry is a binary download, so offline it is offered as the program on PATH
only.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.agents.gallery.registry_file import Distribution, PackageDist, RegistryAgent
from app.i18n import N_, _


@dataclass(frozen=True)
class KnownProgram:
    """A program looked for on PATH: the registry entries it belongs to, and the arguments
    that make it speak ACP (None: it is a CLI the registry's adapter drives, not an agent)."""

    program: str
    ids: tuple[str, ...]
    acp_args: tuple[str, ...] | None
    name: str
    icon: str


# In the gallery's order: the well-known agents first.
KNOWN_PROGRAMS = (
    KnownProgram("claude", ("claude-acp", "claude-code-acp"), None, "Claude Code", "✳️"),
    KnownProgram(
        "claude-agent-acp", ("claude-acp", "claude-code-acp"), (), "Claude Code (ACP)", "✳️"
    ),
    KnownProgram("codex", ("codex-acp",), None, "Codex", "❂"),
    KnownProgram("codex-acp", ("codex-acp",), (), "Codex (ACP)", "❂"),
    KnownProgram("gemini", ("gemini",), ("--acp",), "Gemini CLI", "♊"),
    KnownProgram("opencode", ("opencode",), ("acp",), "opencode", "⌬"),
    KnownProgram("goose", ("goose",), ("acp",), "goose", "G"),
    KnownProgram("qwen", ("qwen-code",), ("--acp",), "Qwen Code", "Q"),
)
WELL_KNOWN_ORDER = (
    "claude-acp",
    "claude-code-acp",
    "codex-acp",
    "gemini",
    "opencode",
    "goose",
    "qwen-code",
)
ICONS = {
    "claude-acp": "✳️",
    "claude-code-acp": "✳️",
    "codex-acp": "❂",
    "gemini": "♊",
    "opencode": "⌬",
    "goose": "G",
    "qwen-code": "Q",
    "mistral-vibe": "M",
}
# The launcher's short names (scripts/agents.sh, app/agents/launcher.py) and what they run.
LAUNCHER_NAMES = {
    "claude": "claude-acp",
    "codex": "codex-acp",
    "gemini": "gemini",
    "opencode": "opencode",
    "goose": "goose",
}


def _npx(package: str, *args: str) -> Distribution:
    return Distribution(npx=PackageDist(package=package, args=list(args)))


BUILTIN_AGENTS = (
    RegistryAgent(
        id="claude-acp",
        name="Claude Code",
        description=N_("Anthropic's coding agent, through its ACP adapter."),
        repository="https://github.com/agentclientprotocol/claude-agent-acp",
        distribution=_npx("@agentclientprotocol/claude-agent-acp"),
    ),
    RegistryAgent(
        id="codex-acp",
        name="Codex CLI",
        description=N_("OpenAI's coding agent, through Zed's ACP adapter."),
        repository="https://github.com/zed-industries/codex-acp",
        license="Apache-2.0",
        distribution=_npx("@zed-industries/codex-acp"),
    ),
    RegistryAgent(
        id="gemini",
        name="Gemini CLI",
        description=N_("Google's command-line agent for Gemini models."),
        repository="https://github.com/google-gemini/gemini-cli",
        license="Apache-2.0",
        distribution=_npx("@google/gemini-cli", "--acp"),
    ),
    RegistryAgent(
        id="opencode",
        name="OpenCode",
        description=N_("An open-source coding agent that works with many model providers."),
        repository="https://github.com/sst/opencode",
        license="MIT",
        distribution=_npx("opencode-ai", "acp"),
    ),
)


def icon_for(agent_id: str, name: str) -> str:
    """The agent's emoji, or the first letter of its name."""
    known = ICONS.get(agent_id)
    if known:
        return known
    letters = [c for c in name if c.isalnum()]
    return letters[0].upper() if letters else "?"


def well_known_rank(agent_id: str) -> int:
    return (
        WELL_KNOWN_ORDER.index(agent_id) if agent_id in WELL_KNOWN_ORDER else len(WELL_KNOWN_ORDER)
    )


OUR_DESCRIPTIONS = {agent.id: agent.description for agent in BUILTIN_AGENTS}


def described(agent: RegistryAgent) -> str:
    """What the catalog says of `agent`: our own words in the person's language when it is one
    of ours (the registry's entry for it included), else its registry's description."""
    ours = OUR_DESCRIPTIONS.get(agent.id)
    return _(ours) if ours else agent.description
