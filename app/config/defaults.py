"""The configuration written on first start: the demo agent, and well-known agents commented out.

Nothing in it needs editing before use: no placeholder key, no folder that may not exist (an
agent without `cwd:` works in the home folder); the gallery (Agents → Add agent) is how a person
adds an agent, and writes it here.

The commented-out agents start through a launcher, by its absolute path at the time the file is
written: scripts/agents.sh (bundled with the app) on Linux and macOS; on Windows, where there is
no bash, app/agents/launcher.py — run by this Python from source, or as `Sidekicks.exe
--launch-agent` from the packaged app, which has no Python to offer.
"""

import json
import re
import sys

from app.paths import is_frozen, resource_path

# What YAML reads as itself in a flow sequence (`[a, b]`); anything else is written quoted.
_PLAIN = re.compile(r"[A-Za-z0-9_./+-]+")


def agent_launcher(
    platform: str = sys.platform, frozen: bool | None = None, executable: str = sys.executable
) -> list[str]:
    """The command that starts a well-known agent by short name (the name follows)."""
    if platform != "win32":
        return [str(resource_path("scripts", "agents.sh"))]
    if is_frozen() if frozen is None else frozen:
        return [executable, "--launch-agent"]
    return [executable, str(resource_path("app", "agents", "launcher.py"))]


def _flow_items(items: list[str]) -> str:
    return ", ".join(item if _PLAIN.fullmatch(item) else json.dumps(item) for item in items)


def default_config_text(
    platform: str = sys.platform, frozen: bool | None = None, executable: str = sys.executable
) -> str:
    launcher = agent_launcher(platform, frozen, executable)
    return DEFAULT_CONFIG.replace("AGENTS_SH", _flow_items(launcher))


DEFAULT_CONFIG = """\
# Sidekicks configuration. Edit it from the app (Settings) or any editor: it reloads live.
# Each agent is a local program that speaks ACP (Agent Client Protocol) on stdin/stdout.
# To add one, use Agents → Add agent in the app: it writes the agent here for you.

theme: system            # system | light | dark
language: system         # system | en | fr
notifications: true      # tell me when an agent answers or asks while the window is not focused

limits:
  maxRunningAgents: 4    # agents running at once; the least recently used idle one makes room
  stopIdleAgentsAfter: 15m   # 90s, 15m, 2h; 0 = never

agents:                  # the app shows them in this order
  - name: demo           # used as @demo and /demo:command
    title: Demo
    icon: "🧪"
    description: A built-in demo agent. Works offline, shows every kind of message.
    builtin: demo

  # Or uncomment one: each needs its own CLI installed (the launcher says how) and signed in
  # from its card. An agent works in your home folder unless you give it a `cwd:`.
  # - name: claude
  #   title: Claude Code
  #   icon: "✳️"
  #   command: [AGENTS_SH, claude]
  # - name: codex
  #   title: Codex
  #   icon: "🌀"
  #   command: [AGENTS_SH, codex]
  # - name: gemini
  #   title: Gemini CLI
  #   icon: "♊"
  #   command: [AGENTS_SH, gemini]
  # - name: opencode
  #   title: opencode
  #   icon: "⌬"
  #   command: [AGENTS_SH, opencode]
  # - name: goose
  #   title: goose
  #   icon: "🪿"
  #   command: [AGENTS_SH, goose]
"""
