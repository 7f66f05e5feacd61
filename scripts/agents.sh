#!/usr/bin/env bash
# Starts a well-known ACP agent by short name, for Sidekicks' configuration:
#
#   command: [/path/to/scripts/agents.sh, claude]
#
#   agents.sh claude|codex|gemini|opencode|goose [ARGS…]
#   agents.sh run COMMAND [ARGS…]        any other ACP program, supervised the same way
#   agents.sh check [NAMES…]              the manual check: what each real agent tells Sidekicks
#                                         (sign-in methods, modes, options, errors); see docs/agents.md
#
# The agent runs with the user's environment (plus what Sidekicks adds from `env:`). When
# AGENTS_SH_HELPER is set, that command is started first in the background (a local model
# server, say) and stopped when the agent ends.
#
# Stopping: Sidekicks closes stdin, waits 5 s, then sends SIGTERM to the process group. On
# SIGTERM (or SIGINT, or the agent's own exit) this script stops the agent, then the helper,
# each with SIGTERM and 2 s of grace before SIGKILL, and only then exits — that is what the
# SPEC's grace period is for.
#
# app/agents/launcher.py does the same in Python, where there is no bash (Windows) and from the
# packaged app (`Sidekicks --launch-agent NAME`); keep the names and the behaviour of both alike.
set -u

usage() {
  echo "usage: agents.sh claude|codex|gemini|opencode|goose [ARGS…] | agents.sh run COMMAND [ARGS…]" >&2
  exit 2
}

name=${1:-}
[ -n "$name" ] || usage
shift
if [ "$name" = check ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  python=$root/.venv/bin/python
  [ -x "$python" ] || python=$root/.venv/Scripts/python.exe
  exec "$python" "$root/scripts/check_agents.py" "$@"
fi
case "$name" in
  claude)   cmd=(npx -y @agentclientprotocol/claude-agent-acp) ;;
  codex)    cmd=(npx -y @zed-industries/codex-acp) ;;
  gemini)   cmd=(npx -y @google/gemini-cli --acp) ;;
  opencode) cmd=(opencode acp) ;;
  goose)    cmd=(goose acp) ;;
  run)      [ $# -gt 0 ] || usage; cmd=("$1"); shift ;;
  *)        echo "agents.sh: unknown agent '$name'" >&2; usage ;;
esac
cmd+=("$@")

if ! command -v "${cmd[0]}" >/dev/null 2>&1; then
  echo "agents.sh: '${cmd[0]}' was not found on PATH (PATH=$PATH)" >&2
  exit 127
fi

helper_pid=""
agent_pid=""

stop_pid() { # pid: SIGTERM, up to 2 s, then SIGKILL
  local pid=$1 waited=0
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt 20 ]; do
    sleep 0.1; waited=$((waited + 1))
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  return 0
}

cleanup() {
  trap - TERM INT EXIT
  stop_pid "$agent_pid"
  if [ -n "$helper_pid" ]; then
    echo "agents.sh: stopping helper ($AGENTS_SH_HELPER)" >&2
    stop_pid "$helper_pid"
  fi
}
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap cleanup EXIT

if [ -n "${AGENTS_SH_HELPER:-}" ]; then
  echo "agents.sh: starting helper ($AGENTS_SH_HELPER)" >&2
  bash -c "$AGENTS_SH_HELPER" </dev/null >&2 &
  helper_pid=$!
fi

# A background job of a non-interactive shell reads /dev/null unless told otherwise: hand it
# our stdin (the ACP channel) explicitly. `wait` returns early on a trapped signal.
"${cmd[@]}" <&0 &
agent_pid=$!
wait "$agent_pid"
status=$?
agent_pid=""
exit $status
