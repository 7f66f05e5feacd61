"""Pydantic without its plugin scan (app/core/pydantic_plugins.py, issue 29 memory): the app's
models validate without `importlib.metadata` being imported, and anything else asked of
pydantic's loader is still the real one's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
import app  # installs it, as every start of the app does
from app.config.model import Config
config = Config.model_validate({"agents": [{"name": "demo", "builtin": "demo"}]})
import pydantic.plugin._loader as loader
print(json.dumps({
    "agents": [a.name for a in config.agents],
    "plugins": list(loader.get_plugins()),
    "metadata_imported": "importlib.metadata" in sys.modules,
    "real_name": loader.PYDANTIC_ENTRY_POINT_GROUP,
}))
"""


def probe() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_models_validate_without_the_entry_point_scan() -> None:
    result = probe()
    assert result["agents"] == ["demo"]
    assert result["plugins"] == []
    assert result["metadata_imported"] is False


def test_other_names_of_the_loader_are_the_real_modules() -> None:
    # The constant lives in pydantic's module only: reading it loads the real loader.
    assert probe()["real_name"] == "pydantic"


def test_a_loader_already_imported_is_left_alone() -> None:
    from app.core import pydantic_plugins

    before = sys.modules.get(pydantic_plugins.LOADER)
    pydantic_plugins.install()
    assert sys.modules.get(pydantic_plugins.LOADER) is before
