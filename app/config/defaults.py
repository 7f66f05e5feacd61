"""The configuration written on first start: the demo agent, and well-known agents commented out.

The commented-out agents start through scripts/agents.sh (bundled with the app), by its absolute
path at the time the file is written.
"""

from app.paths import resource_path


def default_config_text() -> str:
    return DEFAULT_CONFIG.replace("AGENTS_SH", str(resource_path("scripts", "agents.sh")))


DEFAULT_CONFIG = """\
# Sidekicks configuration. Edit it from the app (Settings) or any editor: it reloads live.
# Each agent is a local program that speaks ACP (Agent Client Protocol) on stdin/stdout.

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

  # Uncomment an agent to use it. Each needs its own CLI installed and signed in (or an API
  # key in `env`). agents.sh starts it with your environment and stops it cleanly.
  # - name: claude
  #   title: Claude Code
  #   icon: "✳️"
  #   command: [AGENTS_SH, claude]
  #   env: {ANTHROPIC_API_KEY: "sk-…"}
  #   cwd: ~/code
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
