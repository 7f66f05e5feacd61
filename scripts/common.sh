# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source this
# Sourced by scripts/setup, test, run and package (not run on its own): what differs between
# Linux, macOS (bash 3.2, BSD tools) and Windows (Git Bash, a venv with Scripts/ and .exe).
# Keep it bash 3.2: no mapfile, no ${var,,}, no associative arrays, no `sed -i`.

case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN*) system=windows ;;
  Darwin) system=macos ;;
  *) system=linux ;;
esac

# The venv's programs: .venv/Scripts/python.exe on Windows, .venv/bin/python elsewhere (Git Bash
# finds `ruff` for ruff.exe by itself).
if [ "$system" = windows ]; then
  venv_bin=.venv/Scripts
  venv_python=.venv/Scripts/python.exe
else
  venv_bin=.venv/bin
  venv_python=.venv/bin/python
fi

# A hash of stdin: sha256sum (Linux, Git Bash) or shasum (macOS has no sha256sum).
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi
}

# The Python 3.11+ that makes the venv: $PYTHON, else the first of python3.11, python3, python,
# `py -3.11` (the Windows launcher) that runs and is recent enough. Windows' `python3` may be the
# Store's placeholder, which prints a message and fails: the version check skips it.
find_python() {
  local candidate
  if [ -n "${PYTHON:-}" ]; then
    echo "$PYTHON"
    return 0
  fi
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 \
      && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      echo "$candidate"
      return 0
    fi
  done
  if command -v py >/dev/null 2>&1 && py -3.11 -c '' >/dev/null 2>&1; then
    echo "py -3.11"
    return 0
  fi
  echo "no Python 3.11 or newer found: install it, or set PYTHON=/path/to/python3.11" >&2
  return 1
}
