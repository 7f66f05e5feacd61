"""The Linux GTK variant (./scripts/package --gtk, build/linux/package_gtk.sh): built without Qt
and without the GTK/WebKitGTK stack, it opens its window on the system's WebKitGTK.

The build and window tests need the system's WebKitGTK (gir1.2-webkit2-4.1), which scripts/setup
does not install (the default package is the Qt one): without it they are skipped, saying so.
Everything else they need (gcc, GObject introspection and cairo headers) package_gtk.sh installs
or names, and a build that fails then fails the test.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from app.version import __version__
from tests.bench.running import assert_printed, run_benchmark
from tests.packaging.layout import DIST, ROOT, Layout
from tests.waiting import wait_for

BUILT = "SIDEKICKS_TEST_BUILT_PACKAGE"
FOLDER = DIST / "Sidekicks-gtk"
APPDIR = DIST / "Sidekicks-gtk.AppDir"
# Well under the Qt build's ~450 MiB: the GTK variant carries Python and the app, not a browser.
# Past this, something of the GTK/WebKitGTK stack (or Qt) was bundled.
MAX_FOLDER_MIB = 120
LINUX = "the GTK variant is Linux's (WebKitGTK, AppImage)"


def system_webkitgtk() -> bool:
    return any(
        Path(lib, "girepository-1.0", f"WebKit2-{api}.typelib").is_file()
        for lib in ("/usr/lib", *map(str, Path("/usr/lib").glob("*-linux-gnu")))
        for api in ("4.1", "4.0")
    )


needs_webkitgtk = pytest.mark.skipif(
    not system_webkitgtk(),
    reason="the system's WebKitGTK is not installed (apt install gir1.2-webkit2-4.1): "
    "the GTK variant uses it, and scripts/setup does not install it",
)


def built_variant(test: Callable[..., None]) -> Callable[..., None]:
    """A test of the built GTK variant: slow (a PyInstaller build), Linux's, needs WebKitGTK."""
    for mark in (
        needs_webkitgtk,
        pytest.mark.linux_only(LINUX),
        pytest.mark.timeout(1800),
        pytest.mark.slow,
    ):
        test = mark(test)
    return test


@pytest.fixture(scope="module")
def gtk_build() -> Path:
    """Runs ./scripts/package --gtk once for the module (unless CI built it already)."""
    if os.environ.get(BUILT) != "1" or not FOLDER.is_dir():
        result = subprocess.run(
            ["bash", "scripts/package", "--gtk"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1700,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (FOLDER / "sidekicks").is_file(), "scripts/package --gtk built no dist/Sidekicks-gtk"
    return FOLDER


@pytest.fixture
def x_display() -> Iterator[str]:
    """An X display for the window: a private Xvfb (stopped by its pid), else $DISPLAY."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("DISPLAY"):
            yield os.environ["DISPLAY"]
            return
        # Not a skip: with WebKitGTK there, the window test must run (setup installs no xvfb).
        pytest.fail("no X display for the GTK window: install xvfb (apt install xvfb)")
    number = next(n for n in range(90, 300) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    proc = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        socket = Path(f"/tmp/.X11-unix/X{number}")
        assert wait_for(lambda: socket.exists() or proc.poll() is not None, timeout=20)
        assert proc.poll() is None, "Xvfb stopped at once"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


def bundled(folder: Path) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*")]


@built_variant
def test_the_gtk_variant_bundles_neither_qt_nor_the_gtk_stack(gtk_build: Path) -> None:
    files = bundled(gtk_build)
    internal = gtk_build / "_internal"
    assert (internal / "ui" / "dist" / "index.html").is_file()
    assert list((internal / "ui" / "dist" / "assets").glob("index-*.js")), "the UI's code"
    assert (internal / "locales" / "fr" / "LC_MESSAGES" / "messages.mo").is_file()
    assert list((internal / "gi").glob("_gi.*.so")), "PyGObject's own extension is bundled"
    for unwanted in ("PyQt6", "libQt6", "QtWebEngine", "gi_typelibs", "libwebkit2gtk",
                     "libjavascriptcoregtk", "libgtk-3", "libgdk-3", "libglib-2.0",
                     "libgobject-2.0", "libgirepository", "libcairo.so", "libsoup"):  # fmt: skip
        found = [f for f in files if unwanted in f]
        assert not found, f"{unwanted} was bundled: {found[:5]}"
    size = sum(p.stat().st_size for p in gtk_build.rglob("*") if p.is_file() and not p.is_symlink())
    assert size < MAX_FOLDER_MIB * 2**20, f"{size / 2**20:.0f} MiB: something big was bundled"
    assert (APPDIR / "AppRun").is_file()
    assert (APPDIR / "usr" / "lib" / "sidekicks" / "sidekicks").is_file()
    assert (APPDIR / "sidekicks.desktop").is_file() and (APPDIR / "sidekicks.png").is_file()


@built_variant
def test_the_gtk_variant_prints_its_version_without_a_display(gtk_build: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([gtk_build / "sidekicks", "--version"], capture_output=True, text=True,
                         timeout=120, env=env)  # fmt: skip
    assert out.stdout.strip() == f"Sidekicks {__version__}"


@built_variant
def test_the_gtk_variant_runs_its_demo_agent_without_a_display(gtk_build: Path) -> None:
    """The app starts its built-in agents as `sidekicks --agent demo`: no window, no WebKitGTK."""
    env = {"PATH": "/usr/bin:/bin"}
    params = {"protocolVersion": 1, "clientCapabilities": {}}
    hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
    out = subprocess.run(
        [gtk_build / "sidekicks", "--agent", "demo"],
        input=hello + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert out.stdout.strip(), f"no answer (exit {out.returncode}): {out.stderr[-2000:]}"
    answer = json.loads(out.stdout.splitlines()[0])
    assert answer["result"]["agentInfo"]["name"] == "sidekicks-demo", out.stderr[-2000:]


def process_tree(pid: int) -> list[int]:
    """pid and its descendants, from /proc/*/stat."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat:
            parents.setdefault(int(stat[stat.rindex(")") + 2 :].split()[1]), []).append(
                int(entry.name)
            )
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(parents.get(tree[-1], []))
    return tree


def loaded_from(pid: int, folder: Path) -> tuple[str, list[str]]:
    """A process's name and the shared libraries it mapped from `folder`."""
    try:
        name = Path(f"/proc/{pid}/comm").read_text().strip()
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return "", []
    return name, sorted({line.split()[-1] for line in maps.splitlines()
                         if str(folder) in line and ".so" in line})  # fmt: skip


@built_variant
def test_the_gtk_variant_opens_its_window_on_the_system_webkitgtk_and_its_bridge_answers(
    gtk_build: Path, x_display: str, tmp_path: Path
) -> None:
    """--self-test through the AppDir's AppRun, as the AppImage starts it: the window loads the
    UI on WebKitGTK, a bridge call and a pushed event go through under the page's CSP, exit 0.
    No SIDEKICKS_GUI and no Python on PATH: the build chooses gtk itself. While it runs,
    WebKitGTK's own processes load none of the bundle's libraries (the system's only)."""
    config = tmp_path / "gtk.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "DISPLAY": x_display,
    }
    log = tmp_path / "app.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [APPDIR / "AppRun", "--self-test", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
        )
        try:
            # Between the bridge's answer and the end of the self-test (its navigation check).
            assert wait_for(
                lambda: "self-test in the page:" in log.read_text() or proc.poll() is not None,
                timeout=120,
            ), log.read_text()[-3000:]
            helpers = [loaded_from(pid, APPDIR) for pid in process_tree(proc.pid)[1:]]
            code = proc.wait(120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    said = log.read_text()
    assert code == 0, said[-3000:]
    assert "passed on the gtk backend" in said
    assert any(name.startswith("WebKitWebProces") for name, _ in helpers), helpers
    assert [(name, libs) for name, libs in helpers if libs] == []


@built_variant
def test_the_benchmark_of_both_linux_packages_runs_at_its_tiny_size(
    gtk_build: Path, packaged: Layout
) -> None:
    """bench/appimage_backends.py --tiny on this run's two builds (Qt's and GTK's): their sizes,
    start-ups and memory, each with the ratio Qt/GTK. No figure is asserted."""
    for tool, package in (("Xvfb", "xvfb"), ("mksquashfs", "squashfs-tools")):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt install {package}): the benchmark uses it")
    assert_printed(
        run_benchmark("appimage_backends", timeout=600),
        r"one folder +{n} MiB +{n} MiB +{n}",
        r"AppDir squashfs \(\w+\) +{n} MiB +{n} MiB +{n}",
        r"start-up +{n} ms +{n} ms +{n}",
        r"RSS, process tree +{n} MiB +{n} MiB +{n}",
    )


# The launcher's own choices, without a build (any system: gi is faked).


def launcher() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "launcher_gtk", ROOT / "build" / "linux" / "launcher_gtk.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_gi(*available: str) -> SimpleNamespace:
    def require_version(namespace: str, version: str) -> None:
        if f"{namespace}-{version}" not in available:
            raise ValueError(f"Namespace {namespace} not available for version {version}")

    return SimpleNamespace(require_version=require_version)


@pytest.mark.parametrize(
    ("available", "expected"),
    [
        (("Gtk-3.0", "WebKit2-4.1"), True),
        (("Gtk-3.0", "WebKit2-4.0"), True),  # pywebview accepts the older API too
        (("Gtk-3.0",), False),
        (("WebKit2-4.1",), False),
    ],
)
def test_webkitgtk_counts_as_available_only_with_gtk_3_and_webkit2(
    monkeypatch: pytest.MonkeyPatch, available: tuple[str, ...], expected: bool
) -> None:
    monkeypatch.setitem(sys.modules, "gi", fake_gi(*available))
    assert launcher().webkit_available() is expected


def test_without_pygobject_webkitgtk_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gi", None)  # import gi -> ImportError
    assert launcher().webkit_available() is False


def test_without_webkitgtk_the_window_is_refused_naming_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "gi", fake_gi("Gtk-3.0"))
    environ = {k: v for k, v in os.environ.items() if k != "SIDEKICKS_GUI"}
    monkeypatch.setattr(os, "environ", environ)  # the launcher's default stays in the test
    assert launcher().main(["--config", "x.yaml"]) == 4
    said = capsys.readouterr().err
    assert "gir1.2-webkit2-4.1" in said and "webkit2gtk4.1" in said and "Qt AppImage" in said
    assert environ["SIDEKICKS_GUI"] == "gtk"


@pytest.mark.parametrize(
    "argv", [["--version"], ["--agent", "demo"], ["--agent=demo"], ["--headless"], ["-h"]]
)
def test_what_opens_no_window_needs_no_webkitgtk(argv: list[str]) -> None:
    assert launcher().needs_window(argv) is False


def test_started_processes_get_the_library_path_the_person_had() -> None:
    environ = {"LD_LIBRARY_PATH": "/app/_internal", "LD_LIBRARY_PATH_ORIG": "/opt/lib"}
    launcher().system_library_path(environ)
    assert environ["LD_LIBRARY_PATH"] == "/opt/lib"


def test_started_processes_get_no_library_path_when_the_person_had_none() -> None:
    environ = {"LD_LIBRARY_PATH": "/app/_internal"}
    launcher().system_library_path(environ)
    assert "LD_LIBRARY_PATH" not in environ


def test_the_window_needs_webkitgtk() -> None:
    assert launcher().needs_window(["--config", "x.yaml", "--self-test"]) is True
