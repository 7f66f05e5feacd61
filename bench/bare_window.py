"""The anchor for bench/window.py's start-up figure: a bare pywebview window (same backend,
same flags) loading a static page, and nothing else.

Run: .venv/bin/python bench/bare_window.py [FOLDER [WIDTH HEIGHT]]   (the page is written into
     FOLDER, a new temporary folder without one: bench/window.py gives its own, and removes it,
     and the app's default window size, so that both pages are laid out and painted alike)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import webview

PAGE = '<!doctype html><meta charset="utf-8"><title>bare</title><main data-ready="true">bare</main>'


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    width, height = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (800, 600)
    webview.create_window("bare", url=str(folder / "index.html"), width=width, height=height)
    webview.start(gui="qt" if sys.platform.startswith("linux") else None, http_server=True)


if __name__ == "__main__":
    main()
