"""The two Linux packages side by side (issue 18): the default one on Qt (PyQt6 + QtWebEngine,
bundled) and the GTK variant on the system's WebKitGTK (not bundled), in the same run.

Figures, each with the ratio Qt/GTK:
- size: the one-folder build, the AppDir, its squashfs (the AppImage is that squashfs behind the
  AppImage runtime, ~1 MB: measured with mksquashfs, as appimagetool may be missing) and the
  .AppImage itself when appimagetool built one;
- start-up: process start to "page loaded and bridge answered", median of BENCH_ROUNDS (5) after
  one warm-up run each, alternating Qt and GTK. Both packaged apps run their own `--self-test`
  (app/bridge/self_test.py), and the clock stops when it logs "self-test in the page:" (the page's
  own `pywebview.api` call answered and a pushed event arrived), before its navigation check;
- memory at that moment: RSS summed over the app's process tree (QtWebEngineProcess, or
  WebKitWebProcess and WebKitNetworkProcess), and PSS (shared pages split between processes).

Both windows run on X11 under the same Xvfb, started and stopped here (Qt on xcb, not offscreen:
the same display conditions for both). The GTK variant's system libraries are not in its size;
their installed size is printed beside it (dpkg), for the reader who has no WebKitGTK yet.

Run: ./scripts/package && ./scripts/package --gtk, then
     .venv/bin/python bench/appimage_backends.py   (needs Xvfb and mksquashfs: apt install xvfb
     squashfs-tools; `BENCH_ROUNDS`, 5; `--tiny`: 1 round, no warm-up)
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.proc_tree import descendants  # noqa: E402
from bench.sizes import TINY, count  # noqa: E402

DIST = ROOT / "dist"
ROUNDS = count("BENCH_ROUNDS", 5, 1)
# As appimagetool makes its squashfs: `mksquashfs -comp zstd` (its default since 2023), with
# mksquashfs's default level and block size (128 KiB). gzip/xz: older AppImageKit builds.
COMPRESSION = os.environ.get("BENCH_SQUASHFS_COMP", "zstd")
READY_LINE = "self-test in the page:"
START_TIMEOUT = 60.0
# What the GTK variant takes from the system (Debian names; dpkg's Installed-Size, KiB).
GTK_SYSTEM_PACKAGES = ("libwebkit2gtk-4.1-0", "libjavascriptcoregtk-4.1-0")


@dataclass
class Variant:
    name: str
    folder: Path  # PyInstaller's one-folder build
    appdir: Path
    appimage: str  # glob in dist/
    env: dict[str, str]
    starts: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    pss: list[int] = field(default_factory=list)
    processes: list[int] = field(default_factory=list)
    members: list[tuple[str, int]] = field(default_factory=list)  # the last run's processes

    @property
    def binary(self) -> Path:
        return self.folder / "sidekicks"


def tree_bytes(path: Path) -> int:
    """The files' sizes (not blocks), links counted once as links."""
    total = 0
    for base, _dirs, files in os.walk(path):
        for name in files:
            total += os.lstat(os.path.join(base, name)).st_size
    return total


def squashfs_bytes(appdir: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "appdir.squashfs"
        subprocess.run(
            ["mksquashfs", str(appdir), str(image), "-root-owned", "-noappend", "-no-progress",
             "-comp", COMPRESSION],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        return image.stat().st_size


def memory_of(pid: int) -> tuple[int, int, list[tuple[str, int]]]:
    """RSS and PSS (bytes) summed over the process tree, and each process's name and RSS."""
    rss = pss = 0
    members: list[tuple[str, int]] = []
    for member in [pid, *descendants(pid)]:
        try:
            rollup = Path(f"/proc/{member}/smaps_rollup").read_text()
            name = Path(f"/proc/{member}/comm").read_text().strip()
        except OSError:
            continue  # gone meanwhile
        values = dict(re.findall(r"(?m)^(Rss|Pss):\s+(\d+) kB", rollup))
        rss += int(values.get("Rss", 0)) * 1024
        pss += int(values.get("Pss", 0)) * 1024
        members.append((name, int(values.get("Rss", 0)) * 1024))
    return rss, pss, members


def start_once(
    variant: Variant, config: Path, xdg: Path
) -> tuple[float, int, int, list[tuple[str, int]]]:
    env = {**os.environ, **variant.env, "XDG_CONFIG_HOME": str(xdg)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(variant.binary), "--self-test", "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = threading.Event()
    seen: list[str] = []
    result: dict[str, float] = {}

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            seen.append(line)
            if READY_LINE in line and not ready.is_set():
                result["at"] = time.perf_counter()
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(START_TIMEOUT):
            raise RuntimeError(f"{variant.name}: no answer in {START_TIMEOUT} s: {''.join(seen)}")
        rss, pss, members = memory_of(proc.pid)
        code = proc.wait(START_TIMEOUT)
        reader.join(5)
        if code != 0 or "'call': 'ok'" not in "".join(seen):
            raise RuntimeError(f"{variant.name}: self-test exit {code}: {''.join(seen)[-2000:]}")
        return result["at"] - start, rss, pss, members
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    number = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    xvfb = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if xvfb.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("Xvfb did not start")
        time.sleep(0.05)
    return xvfb, f":{number}"


def system_kib(packages: tuple[str, ...]) -> int | None:
    if not shutil.which("dpkg-query"):
        return None
    out = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Installed-Size}\n", *packages], capture_output=True, text=True
    )
    sizes = [int(s) for s in out.stdout.split() if s.isdigit()]
    return sum(sizes) if len(sizes) == len(packages) else None


def mib(n: float) -> str:
    return f"{n / 2**20:8.1f} MiB"


def line(label: str, qt: float, gtk: float, show: Callable[[float], str] = mib) -> None:
    ratio = f"{qt / gtk:6.2f}" if gtk else "   n/a"
    print(f"  {label:<30} {show(qt)}  {show(gtk)}   {ratio}")


def main() -> None:
    root_env = {"QTWEBENGINE_DISABLE_SANDBOX": "1"} if os.geteuid() == 0 else {}
    qt = Variant("Qt", DIST / "Sidekicks", DIST / "Sidekicks.AppDir", "Sidekicks-[0-9]*.AppImage",
                 {"QT_QPA_PLATFORM": "xcb", **root_env})  # fmt: skip
    gtk = Variant("GTK", DIST / "Sidekicks-gtk", DIST / "Sidekicks-gtk.AppDir",
                  "Sidekicks-gtk-*.AppImage", {"SIDEKICKS_GUI": "gtk"})  # fmt: skip
    for variant, how in ((qt, "./scripts/package"), (gtk, "./scripts/package --gtk")):
        if not variant.binary.is_file() or not variant.appdir.is_dir():
            sys.exit(f"{variant.folder} or {variant.appdir} is missing: run {how} first")
    for tool in ("Xvfb", "mksquashfs"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed (apt install xvfb squashfs-tools)")

    print("Linux packages: Qt (bundled QtWebEngine) vs GTK (system WebKitGTK)   Qt / GTK")
    print(f"  {'':<30} {'Qt':>12}  {'GTK':>12}   ratio")
    line("one folder", tree_bytes(qt.folder), tree_bytes(gtk.folder))
    line("AppDir", tree_bytes(qt.appdir), tree_bytes(gtk.appdir))
    line(
        f"AppDir squashfs ({COMPRESSION})",
        squashfs_bytes(qt.appdir),
        squashfs_bytes(gtk.appdir),
    )
    images = [sorted(DIST.glob(v.appimage)) for v in (qt, gtk)]
    if all(images):
        line("AppImage", images[0][-1].stat().st_size, images[1][-1].stat().st_size)
    else:
        print(f"  {'AppImage':<30} (appimagetool not on PATH: the squashfs above + its runtime)")
    system = system_kib(GTK_SYSTEM_PACKAGES)
    if system is not None:
        print(f"  GTK's system WebKitGTK ({' + '.join(GTK_SYSTEM_PACKAGES)}): "
              f"{mib(system * 1024).strip()} installed, not in the package")  # fmt: skip

    # As root, QtWebEngine must run without its sandbox; WebKitGTK keeps its own (bubblewrap)
    # unless told. Its start-up is then measured both ways: sandboxed as a person runs it, and
    # unsandboxed like the Qt one here.
    unsandboxed = None
    if root_env:
        no_sandbox = {**gtk.env, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1"}
        unsandboxed = Variant("GTK, no sandbox", gtk.folder, gtk.appdir, gtk.appimage, no_sandbox)
    runs = [qt, gtk] + ([unsandboxed] if unsandboxed else [])
    xvfb, display = start_xvfb()
    try:
        for variant in runs:
            variant.env["DISPLAY"] = display
        work = Path(tempfile.mkdtemp(prefix="bench-appimage-"))
        config = work / "start.yaml"
        config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
        homes = {v.name: work / v.name.split(",")[0] for v in runs}
        for variant in [] if TINY else runs:  # warm-up: the first start reads it all from disk
            start_once(variant, config, homes[variant.name])
        print(f"(load average before the runs: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        for _ in range(ROUNDS):
            for variant in runs:
                seconds, rss, pss, members = start_once(variant, config, homes[variant.name])
                variant.starts.append(seconds)
                variant.rss.append(rss)
                variant.pss.append(pss)
                variant.processes.append(len(members))
                variant.members = members
        shutil.rmtree(work, ignore_errors=True)
    finally:
        xvfb.terminate()
        xvfb.wait(10)

    med = statistics.median
    print(f"start-up to page loaded and bridge answered, median of {ROUNDS} (Xvfb, X11 both)")
    line("start-up", med(qt.starts), med(gtk.starts), lambda s: f"{s * 1000:8.0f} ms   ")
    if unsandboxed:
        line("start-up, WebKit sandbox off", med(qt.starts), med(unsandboxed.starts),
             lambda s: f"{s * 1000:8.0f} ms   ")  # fmt: skip
    line("RSS, process tree", med(qt.rss), med(gtk.rss))
    line("PSS, process tree", med(qt.pss), med(gtk.pss))
    line("processes", med(qt.processes), med(gtk.processes), lambda n: f"{n:8.0f}       ")
    for variant in runs:
        times = " ".join(f"{s * 1000:.0f}" for s in variant.starts)
        print(f"  {variant.name} runs (ms): {times}  (min {min(variant.starts) * 1000:.0f})")
        each = ", ".join(f"{name} {mib(rss).strip()}" for name, rss in variant.members)
        print(f"  {variant.name} processes (RSS, last run): {each}")


if __name__ == "__main__":
    main()
