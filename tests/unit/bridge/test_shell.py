"""What pywebview can reach, the CSP patch of its bridge, geometry, the file chooser, bindings."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.api import service_classes
from app.bridge import csp
from app.bridge.geometry import MIN_SIZE, Geometry, load_geometry, save_geometry
from app.bridge.window import YAML_FILTER, choose_file
from tests.unit.test_services import SERVICES

ROOT = Path(__file__).resolve().parents[3]


def reachable(obj: object, prefix: str = "", seen: set[int] | None = None) -> list[str]:
    """What pywebview's walk over js_api finds (webview.util.inject_pywebview, get_functions)."""
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    found = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        attr = getattr(obj, name)
        full = f"{prefix}.{name}" if prefix else name
        if inspect.ismethod(attr) or inspect.isfunction(attr):
            found.append(full)
        elif inspect.isclass(attr) or (not callable(attr) and hasattr(attr, "__module__")):
            found += reachable(attr, full, seen)
    return found


def test_js_api_exposes_only_the_services_methods(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    with Sidekicks(config=config) as sk:
        names = reachable(sk.api)
    assert {n.split(".")[0] for n in names} == {s.__name__ for s in service_classes()}
    assert all(n.count(".") == 1 and n.split(".")[1][0].isupper() for n in names), names
    assert "ConfigService.Choose" in names
    # Exactly the exposed methods of every service (tests/unit/test_services.py lists them).
    assert len(names) == sum(len(methods) for methods in SERVICES.values())


def test_the_bridge_script_is_patched_to_build_functions_without_eval() -> None:
    from webview import util

    js_code = (Path(util.get_js_dir()) / "api.js").read_text(encoding="utf-8")
    assert csp.ORIGINAL in js_code  # pywebview still builds functions with new Function
    patched = csp.patch_script(js_code)
    assert "new Function" not in patched
    assert "eval(" not in patched


def test_a_changed_bridge_script_refuses_to_start() -> None:
    with pytest.raises(csp.BridgePatchError, match=r"app/bridge/csp.py"):
        csp.patch_script("window.pywebview = {}")


def test_the_windows_geometry_is_remembered(user_config_dir: Path) -> None:
    assert load_geometry() == Geometry()
    save_geometry(Geometry(1400, 900, 10, 20))
    assert load_geometry() == Geometry(1400, 900, 10, 20)
    save_geometry(Geometry(10, 10, None, None))  # never smaller than the minimum
    assert (load_geometry().width, load_geometry().height) == MIN_SIZE
    (user_config_dir / "sidekicks" / "window.json").write_text("{broken", encoding="utf-8")
    assert load_geometry() == Geometry()


class FakeWindow:
    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.asked: dict[str, Any] = {}

    def create_file_dialog(self, kind: Any, **options: Any) -> Any:
        self.asked = {"kind": kind, **options}
        return self.answer


def test_the_file_chooser_asks_for_one_yaml_file() -> None:
    window = FakeWindow(("/home/me/agents.yaml",))
    assert choose_file(window) == "/home/me/agents.yaml"
    assert window.asked["file_types"] == YAML_FILTER
    assert window.asked["allow_multiple"] is False
    assert choose_file(FakeWindow(None)) is None  # cancelled


def test_the_committed_bindings_are_current() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/gen_bindings.py", "--check"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_binding_file_says_it_is_generated() -> None:
    files = sorted((ROOT / "ui" / "bindings").glob("*.ts"))
    assert len(files) == len(service_classes()) + 4  # + events, models, runtime, index
    for path in files:
        assert path.read_text(encoding="utf-8").startswith("// generated — do not edit")
