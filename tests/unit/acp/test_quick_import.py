"""The ACP SDK's models are imported without pydantic's attribute-docstring pass (app/acp/
quick_import.py), and nothing else changes: the wire models validate and dump as before, the
pass is back for every other model, and without the private function nothing is patched.

The imports run in a fresh interpreter each (this worker may have imported the SDK already),
from a script file: pydantic reads a class's docstrings from its source."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic._internal import _fields

from app.acp import quick_import

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "app":
    import app  # installs the finder, as every start of the app and of a built-in agent does
import acp.schema as schema
from pydantic import BaseModel, ConfigDict

class Ours(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)
    name: str = ""
    '''The name, as a docstring.'''

class Later(BaseModel):
    name: str = ""

built_before = {
    "sdk_used": schema.InitializeRequest.__pydantic_complete__,
    "sdk_unused": schema.KillTerminalRequest.__pydantic_complete__,
    "ours": Ours.__pydantic_complete__ and Later.__pydantic_complete__,
}

wire = {"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": True}}}
request = schema.InitializeRequest.model_validate(wire)
print(json.dumps({
    "loader": type(schema.__loader__).__name__,
    "sdk_description": schema.InitializeRequest.model_fields["protocol_version"].description,
    "ours_description": Ours.model_fields["name"].description,
    "dumped": request.model_dump(mode="json", by_alias=True),
    "source": "class InitializeRequest" in schema.__loader__.get_source(schema.__name__),
    "built_before": built_before,
    "built_after_use": schema.InitializeRequest.__pydantic_complete__,
    "unused_still_waits": not schema.KillTerminalRequest.__pydantic_complete__,
    "defer_left_behind": "defer_build" in BaseModel.model_config,
}))
"""


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    script = tmp_path_factory.mktemp("probe") / "probe.py"
    script.write_text(PROBE, encoding="utf-8")

    def run(mode: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, str(script), str(ROOT), mode],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        result: dict[str, object] = json.loads(done.stdout)
        return result

    return {"app": run("app"), "plain": run("plain")}


def test_the_sdk_models_skip_the_docstring_pass(imported: dict[str, dict[str, object]]) -> None:
    with_app, plain = imported["app"], imported["plain"]
    assert with_app["loader"] == "_QuickLoader"
    assert plain["loader"] == "SourceFileLoader"
    # Without the finder, pydantic copies the field's docstring; with it, the pass is skipped.
    assert isinstance(plain["sdk_description"], str) and plain["sdk_description"]
    assert with_app["sdk_description"] is None


def test_the_wire_models_and_every_other_model_are_unchanged(
    imported: dict[str, dict[str, object]],
) -> None:
    with_app, plain = imported["app"], imported["plain"]
    assert with_app["dumped"] == plain["dumped"]
    assert with_app["dumped"]["clientCapabilities"]["fs"]["readTextFile"] is True  # type: ignore[index]
    assert with_app["ours_description"] == plain["ours_description"] == "The name, as a docstring."
    assert with_app["source"] is True  # what tools ask the module's loader is still answered


def test_the_sdk_models_are_built_at_their_first_use_and_ours_as_declared(
    imported: dict[str, dict[str, object]],
) -> None:
    with_app, plain = imported["app"], imported["plain"]
    assert with_app["built_before"] == {"sdk_used": False, "sdk_unused": False, "ours": True}
    assert plain["built_before"] == {"sdk_used": True, "sdk_unused": True, "ours": True}
    assert with_app["built_after_use"] is True  # validated above, as the plain import's
    assert with_app["unused_still_waits"] is True
    assert with_app["defer_left_behind"] is False


def test_without_the_private_pass_nothing_is_patched(monkeypatch: pytest.MonkeyPatch) -> None:
    original = _fields._update_fields_from_docstrings
    with quick_import.without_attribute_docstrings() as off:
        assert off is True
        assert _fields._update_fields_from_docstrings is not original
    assert _fields._update_fields_from_docstrings is original
    monkeypatch.delattr(_fields, "_update_fields_from_docstrings")
    with quick_import.without_attribute_docstrings() as off:
        assert off is False
        assert not hasattr(_fields, "_update_fields_from_docstrings")


def test_installing_twice_adds_one_finder_that_minds_the_sdk_schema_alone() -> None:
    quick_import.install()
    quick_import.install()
    finders = [f for f in sys.meta_path if isinstance(f, quick_import._QuickSchemaFinder)]
    assert len(finders) == 1
    assert finders[0].find_spec("json", None) is None
    import acp

    spec = finders[0].find_spec(quick_import.SCHEMA_MODULE, list(acp.__path__))
    assert spec is not None and isinstance(spec.loader, quick_import._QuickLoader)
