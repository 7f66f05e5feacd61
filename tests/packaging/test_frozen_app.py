"""The packaged app: built once by scripts/package, then run as a person would run it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from app.version import __version__
from tests.e2e.window import api, running_frozen_app
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
# Building the package (PyInstaller, with its first install on a fresh clone) takes minutes.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]


@pytest.fixture(scope="module")
def packaged() -> Path:
    """Runs scripts/package once for the module; yields dist/."""
    result = subprocess.run(
        ["./scripts/package"], cwd=ROOT, capture_output=True, text=True, timeout=1800
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return DIST


def binary(dist: Path) -> Path:
    return dist / "Sidekicks" / "sidekicks"


def test_the_artifacts_are_built(packaged: Path) -> None:
    assert binary(packaged).is_file() and os.access(binary(packaged), os.X_OK)
    assert (packaged / "Sidekicks.AppDir" / "AppRun").is_file()
    assert (packaged / f"sidekicks_{__version__}_amd64.deb").is_file()
    assert (packaged / f"sidekicks-{__version__}-linux-x86_64.tar.gz").is_file()
    internal = packaged / "Sidekicks" / "_internal"
    assert (internal / "ui" / "dist" / "index.html").is_file()
    assert (internal / "locales" / "fr" / "LC_MESSAGES" / "messages.mo").is_file()
    assert (internal / "scripts" / "agents.sh").is_file()
    for unwanted in ("pytest", "hypothesis", "playwright", "mypy", "tkinter", "babel"):
        assert not list(internal.glob(f"{unwanted}*")), f"{unwanted} was bundled"


def test_the_frozen_app_prints_its_version(packaged: Path) -> None:
    out = subprocess.run([binary(packaged), "--version"], capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    assert out.stdout.strip() == f"Sidekicks {__version__}"


def test_the_frozen_app_renders_and_the_demo_answers_without_python(
    packaged: Path, tmp_path: Path
) -> None:
    config = tmp_path / "frozen.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    # No Python on PATH: the demo agent must run from the frozen executable itself.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ""}
    with running_frozen_app(binary(packaged), ["--config", str(config)], tmp_path / "app.log",
                            env) as page:  # fmt: skip
        assert api(page, "ConfigService", "Current")["path"] == str(config)
        direct = api(page, "ChannelService", "Direct", "demo")
        api(page, "ChannelService", "Send", direct["id"], "/echo hello from the frozen app")

        def answer() -> str:
            messages = api(page, "ChannelService", "Conversation", direct["id"])["messages"]
            done = [m for m in messages if m["role"] == "agent" and m["done"]]
            return done[-1]["parts"][0]["text"] if done else ""

        assert wait_for(answer, timeout=60) == "hello from the frozen app"


def test_the_deb_installs_a_desktop_entry_and_the_binary(packaged: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    subprocess.run(["dpkg", "-x", packaged / f"sidekicks_{__version__}_amd64.deb", root],
                   check=True, timeout=300)  # fmt: skip
    desktop = (root / "usr/share/applications/sidekicks.desktop").read_text()
    assert "Exec=sidekicks %f" in desktop
    assert "Icon=sidekicks" in desktop
    assert "Type=Application" in desktop
    assert (root / "usr/share/icons/hicolor/512x512/apps/sidekicks.png").is_file()
    link = root / "usr/bin/sidekicks"
    assert link.is_symlink() and os.readlink(link) == "/opt/sidekicks/sidekicks"
    installed = root / "opt/sidekicks/sidekicks"
    assert installed.read_bytes()[:4] == b"\x7fELF"
    out = subprocess.run([installed, "--version"], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"Sidekicks {__version__}"
    deb = packaged / f"sidekicks_{__version__}_amd64.deb"
    info = subprocess.run(
        ["dpkg-deb", "--field", deb, "Package", "Version"], capture_output=True, text=True
    )
    assert info.stdout.split() == ["Package:", "sidekicks", "Version:", __version__]
