"""The UI extractor finds `t("…")` calls in .ts and .svelte files, with their lines."""

from __future__ import annotations

from pathlib import Path

from tests.unit.i18n.script import i18n_script

SOURCE = """<script lang="ts">
  import { t, N_ } from "../lib/i18n.svelte";
  // t("in a line comment") is not a use
  /* nor t("in a block comment") */
  const label = t('single \\'quoted\\' text');
  const later = N_("marked only");
  const url = "https://example.com"; const x = t("after a URL");
  const parts = text.split("not a call of t");
  const other = thing.t("a method named t");
  const dynamic = t(label);
  const template = t(`a template literal`);
  const joined = t("a" + b);
</script>

<!-- <p>{t("in a markup comment")}</p> -->
<p title={t("Log of {agent}", { agent })}>{t(
  "spread over \\"lines\\""
)}</p>
<p>Don't be fooled by an apostrophe: {t("after an apostrophe")}</p>
"""


def extract(tmp_path: Path, source: str, name: str = "View.svelte") -> tuple[dict[str, int], str]:
    folder = tmp_path / "ui" / "src"
    folder.mkdir(parents=True)
    (folder / name).write_text(source, encoding="utf-8")
    extraction = i18n_script.extract(tmp_path)
    lines = {m: u.locations[0][1] for m, u in extraction.messages.items()}
    return lines, "\n".join(extraction.warnings)


def test_literal_calls_are_extracted_with_their_line_and_the_rest_is_ignored(
    tmp_path: Path,
) -> None:
    lines, _warnings = extract(tmp_path, SOURCE)
    assert lines == {
        "single 'quoted' text": 5,
        "marked only": 6,
        "after a URL": 7,
        "Log of {agent}": 16,
        'spread over "lines"': 16,
        "after an apostrophe": 19,
    }


def test_calls_whose_argument_is_not_one_literal_are_reported(tmp_path: Path) -> None:
    _lines, warnings = extract(tmp_path, SOURCE)
    assert "ui/src/View.svelte:10: t(label)" in warnings
    assert "ui/src/View.svelte:11: t(`a template literal`)" in warnings
    assert "ui/src/View.svelte:12: t(" in warnings
    assert warnings.count("\n") == 2


def test_typescript_files_are_read_and_declaration_files_are_not(tmp_path: Path) -> None:
    lines, _ = extract(tmp_path, 'export const a = (): string => t("from TypeScript");\n', "a.ts")
    (tmp_path / "ui" / "src" / "b.d.ts").write_text('declare const b: "t(\\"x\\")";\n')
    assert lines == {"from TypeScript": 1}
    assert list(i18n_script.extract(tmp_path).messages) == ["from TypeScript"]


def test_javascript_escapes_are_decoded() -> None:
    assert i18n_script._unescape_js(r"a\u00e9\x41\u{1F600}\n\\") == "aéA😀\n\\"


def test_pt_gives_a_word_its_own_entry_in_a_context(tmp_path: Path) -> None:
    source = '{t("Delete")} {pt("tool kind", "Delete")} {pt("tool kind", name)}\n'
    lines, warnings = extract(tmp_path, source)
    assert lines == {"Delete": 1, "tool kind\x04Delete": 1}
    assert 'ui/src/View.svelte:1: pt("tool kind", name)' in warnings
    pot = i18n_script.template(i18n_script.extract(tmp_path))
    assert pot.get("Delete", "tool kind") is not None
    assert pot.get("Delete") is not None
