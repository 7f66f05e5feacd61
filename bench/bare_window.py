"""The anchor for bench/window.py's start-up figure: a bare pywebview window (same backend,
same flags) loading a static page, and nothing else."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import webview

PAGE = '<!doctype html><meta charset="utf-8"><title>bare</title><main data-ready="true">bare</main>'


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    webview.create_window("bare", url=str(folder / "index.html"))
    webview.start(gui="qt" if sys.platform.startswith("linux") else None, http_server=True)


if __name__ == "__main__":
    main()
