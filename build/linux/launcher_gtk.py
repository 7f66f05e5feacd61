"""The GTK variant's entry point (build/linux/sidekicks-gtk.spec): `python -m app` on the system's
WebKitGTK. This build carries no Qt, so the window must be the gtk one; WebKitGTK, GTK and GLib
are the system's (not bundled), and a missing WebKitGTK is said plainly instead of pywebview's
"You must have either QT or GTK" refusal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

# What to install where the system's WebKitGTK is missing, per distribution family.
MISSING_WEBKIT = (
    "sidekicks: this build opens its window with the system's WebKitGTK, which is not installed.\n"
    "  Debian/Ubuntu: sudo apt install gir1.2-webkit2-4.1\n"
    "  Fedora:        sudo dnf install webkit2gtk4.1\n"
    "  Arch:          sudo pacman -S webkit2gtk-4.1\n"
    "or use the Qt AppImage, which brings its own web engine."
)
# Runs without a window (no WebKitGTK needed): a built-in agent, a launched agent, --version...
NO_WINDOW = ("--agent", "--launch-agent", "--version", "--headless", "--help", "-h")


def webkit_available() -> bool:
    """True when GTK 3 and WebKit2 4.1 (or 4.0, as pywebview accepts) can be loaded."""
    try:
        import gi

        gi.require_version("Gtk", "3.0")
        try:
            gi.require_version("WebKit2", "4.1")
        except ValueError:
            gi.require_version("WebKit2", "4.0")
    except (ImportError, ValueError):
        return False
    return True


def needs_window(argv: list[str]) -> bool:
    return not any(arg in NO_WINDOW or arg.startswith("--agent=") for arg in argv)


def system_library_path(environ: MutableMapping[str, str]) -> None:
    """Gives processes started from here the library path the person had, not the bundle's.

    PyInstaller's bootloader puts the bundle (_internal) first on LD_LIBRARY_PATH and keeps the
    original in LD_LIBRARY_PATH_ORIG. WebKitGTK starts its own helper processes (WebKitWebProcess,
    WebKitNetworkProcess, with the system's GL driver): with the bundle's path they load the
    bundle's copies of system libraries (libtinfo, libuuid...), built for another distribution.
    Agents started by the app are the person's programs: they get the person's path too."""
    if environ.get("LD_LIBRARY_PATH_ORIG"):
        environ["LD_LIBRARY_PATH"] = environ["LD_LIBRARY_PATH_ORIG"]
    else:
        environ.pop("LD_LIBRARY_PATH", None)


def main(argv: list[str]) -> int:
    # The one backend this build has; an explicit choice is still honoured (and refused by
    # pywebview if it is qt).
    os.environ.setdefault("SIDEKICKS_GUI", "gtk")
    if getattr(sys, "frozen", False):
        system_library_path(os.environ)
    if needs_window(argv) and not webkit_available():
        print(MISSING_WEBKIT, file=sys.stderr)
        return 4
    from app.__main__ import main as app_main

    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
