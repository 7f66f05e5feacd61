"""An agent's `folders:` (issue 15): more folders it may write in without asking, relative
to the configuration file like `cwd`."""

from __future__ import annotations

import json
from pathlib import Path

from app.config.model import json_schema
from app.config.validate import Validation, check_text


def validate(text: str, base_dir: Path) -> Validation:
    return check_text(text, base_dir)


AGENT = "agents:\n  - name: a\n    builtin: demo\n"


def test_folders_are_a_list_of_paths_kept_in_the_model(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    elsewhere = str(tmp_path / "elsewhere")  # an absolute folder on every system
    Path(elsewhere).mkdir()
    result = validate(AGENT + f"    folders: [docs, {json.dumps(elsewhere)}]\n", tmp_path)
    assert result.valid and result.entries == []
    assert result.config is not None
    assert result.config.agents[0].folders == ["docs", elsewhere]


def test_a_missing_folder_is_a_warning_at_its_entry(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    result = validate(AGENT + "    folders:\n      - docs\n      - no-such-folder\n", tmp_path)
    assert result.valid and result.problems == []
    (warning,) = result.warnings
    assert (warning.line, warning.column) == (6, 9)
    assert f"`{tmp_path / 'no-such-folder'}` does not exist" in warning.message


def test_folders_that_are_not_a_list_of_texts_are_a_problem(tmp_path: Path) -> None:
    assert not validate(AGENT + "    folders: docs\n", tmp_path).valid
    assert not validate(AGENT + '    folders: [""]\n', tmp_path).valid
    assert not validate(AGENT + "    folders: [3]\n", tmp_path).valid


def test_the_schema_describes_folders() -> None:
    agent = json_schema()["$defs"]["AgentDef"]["properties"]["folders"]
    assert agent["type"] == "array"
    assert agent["items"] == {"minLength": 1, "type": "string"}
