"""`scripts/i18n.py compile` writes the .mo files for Python and the JSON catalog for the UI."""

from __future__ import annotations

import gettext
import json
import subprocess
import sys
from pathlib import Path

from tests.unit.i18n.script import ROOT, SCRIPT


def compile_into(tmp_path: Path) -> Path:
    ui_json = tmp_path / "locales.generated.json"
    subprocess.run(
        [sys.executable, str(SCRIPT), "compile", "--out", str(tmp_path), "--json", str(ui_json)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return ui_json


def test_the_ui_catalog_holds_the_french_of_the_ui_strings(tmp_path: Path) -> None:
    document = json.loads(compile_into(tmp_path).read_text(encoding="utf-8"))
    assert document["_comment"] == "generated — do not edit: scripts/i18n.py compile"
    assert set(document) == {"_comment", "en", "fr"}
    assert document["fr"]["starting…"] == "démarre…"
    assert document["fr"]["restart to apply changes"] == "à redémarrer"
    assert document["en"] == {}, "English is the source: nothing to look up"


def test_the_mo_files_translate_server_messages(tmp_path: Path) -> None:
    compile_into(tmp_path)
    with (tmp_path / "fr" / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        french = gettext.GNUTranslations(f)
    assert (
        french.gettext("the disk is full (the history is in {folder})")
        == "le disque est plein (l’historique est dans {folder})"
    )
    assert (tmp_path / "en" / "LC_MESSAGES" / "messages.mo").is_file()


def test_compiling_leaves_the_project_files_alone_when_told_where_to_write(tmp_path: Path) -> None:
    before = sorted(p.relative_to(ROOT) for p in (ROOT / "locales").rglob("*.po"))
    compile_into(tmp_path)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert written == [
        "en/LC_MESSAGES/messages.mo",
        "fr/LC_MESSAGES/messages.mo",
        "locales.generated.json",
    ]
    assert sorted(p.relative_to(ROOT) for p in (ROOT / "locales").rglob("*.po")) == before
