"""What the idle window does not load (issue 29, memory): libraries that only a feature in use
needs are imported on first use. Each is checked in a fresh interpreter that imports what
`python -m app` imports and starts the core headless, as the window's process does."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.api import service_classes
from app.core.expose import Arguments
from app.core.lazy import LazyModule

ROOT = Path(__file__).resolve().parents[2]
# Library → what loads it on first use (and what it costs at start-up: docs/benchmarks.md).
DEFERRED = {
    "acp": "the first agent started (app/agents/connecting.py)",
    "pygit2": "the first checkpoint or worktree (app/checkpoints/store.py, app/core/lazy.py)",
    "markdown_it": "the first HTML export, search or conversation titled (plain.py)",
    "app.channels.export.markdown": "the first export or copied message (export/service.py)",
    "app.channels.export.json_doc": "the first JSON export (app/channels/export/service.py)",
    "app.channels.forking": "the first fork (app/channels/fork_service.py)",
    "app.channels.fork_worktrees": "the first fork (app/channels/fork_service.py)",
    "app.workspace.worktrees.merging": "the first worktree listed or merged (worktrees/service.py)",
    "difflib": "the first change's diff or hunk reverted (app/workspace/changes.py, hunks.py)",
    "tarfile": "the first binary install (app/agents/gallery/archive.py)",
}
PROBE = """
import json, sys
from pathlib import Path
import app.__main__, app.bridge.window
from app import Sidekicks
config = Path(sys.argv[1])
config.write_text("agents:\\n  - name: demo\\n    builtin: demo\\n", encoding="utf-8")
with Sidekicks(config=config):
    loaded = sorted(name for name in json.loads(sys.argv[2]) if name in sys.modules)
print(json.dumps(loaded))
"""


def loaded_by(probe: str, tmp_path: Path, names: list[str]) -> list[str]:
    """Which of `names` a fresh interpreter running `probe` has loaded (the probe prints them)."""
    result = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "probe.yaml"), json.dumps(names)],
        cwd=ROOT,
        env={"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded: list[str] = json.loads(result.stdout.splitlines()[-1])
    return loaded


def test_the_idle_app_imports_none_of_the_deferred_libraries(tmp_path: Path) -> None:
    loaded = loaded_by(PROBE, tmp_path, list(DEFERRED))
    assert {name: DEFERRED[name] for name in loaded} == {}


# What the window's own start must not wait for: the backend imports them on its own thread
# (app/bridge/starting.py) while the window opens, so the main thread imports none of them.
BACKEND_ONLY = ["app.sidekicks", "app.api", "app.bridge.results", "app.config.store", "pydantic",
                "ruamel", "asyncio", "watchdog", "lmdb"]  # fmt: skip
WINDOW_PROBE = """
import json, sys
from pathlib import Path
import app.__main__, app.bridge.window, app.bridge.starting
from app.config.startup import startup_config
config = Path(sys.argv[1])
config.write_text("agents: []\\n", encoding="utf-8")
assert startup_config(config).path == config
print(json.dumps(sorted(name for name in json.loads(sys.argv[2]) if name in sys.modules)))
"""


def test_the_window_opens_before_the_backend_is_imported(tmp_path: Path) -> None:
    assert loaded_by(WINDOW_PROBE, tmp_path, BACKEND_ONLY) == []


def test_a_lazy_module_imports_on_its_first_attribute_once_from_any_thread() -> None:
    name = "tests.unit.lazy_target"
    sys.modules.pop(name, None)
    lazy = LazyModule(name)
    assert name not in sys.modules
    seen: list[object] = []
    threads = [threading.Thread(target=lambda: seen.append(lazy.VALUE)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [42] * 8
    assert sys.modules[name].LOADS == [1]  # executed once
    with pytest.raises(AttributeError):
        _ = lazy.missing


def test_every_exposed_argument_has_a_validator_that_builds() -> None:
    """@exposed builds a validator with the first call that needs it (not at import, which the
    idle window paid for every method): each one builds all the same, for every service."""
    built = 0
    for service in service_classes():
        for name, method in vars(service).items():
            arguments = getattr(method, "__arguments__", None)
            if isinstance(arguments, Arguments):
                for parameter in arguments.hints:
                    assert arguments.validator(parameter) is not None, (service, name, parameter)
                    built += 1
    assert built > 50  # the walk found the services' methods
