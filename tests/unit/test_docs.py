"""The README stays a page people read, and the documentation's links lead somewhere: the README
is at most 300 lines (details belong in docs/), and every relative link of README.md and
docs/*.md names a file that exists, and a heading of it that exists when it names one. The
README's configuration reference names every key of the model, and every YAML example in the
docs is a configuration without problems."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config.model import json_schema
from app.config.validate import validate_text

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 300

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
EXTERNAL = ("http://", "https://", "mailto:")
YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def prose(text: str) -> str:
    """The text without code blocks and code spans, where brackets are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, code marks and punctuation dropped, spaces
    as hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(h) for h in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))}


def leads_nowhere(document: Path, target: str) -> bool:
    path_part, _, fragment = target.partition("#")
    linked = (document.parent / path_part).resolve() if path_part else document
    if not linked.exists():
        return True
    return bool(fragment) and linked.suffix == ".md" and fragment not in anchors(linked)


def broken_links(document: Path) -> list[str]:
    """The relative links of `document` that lead nowhere, as written."""
    targets = LINK.findall(prose(document.read_text(encoding="utf-8")))
    return [t for t in targets if not t.startswith(EXTERNAL) and leads_nowhere(document, t)]


def test_the_readme_is_at_most_300_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"{len(lines)} lines: move the details to docs/"


def test_the_docs_folder_has_its_index_and_the_readme_links_to_it() -> None:
    assert (ROOT / "docs" / "README.md").is_file()
    assert "docs/README.md" in LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_every_docs_page_is_listed_in_the_index() -> None:
    index = set(LINK.findall((ROOT / "docs" / "README.md").read_text(encoding="utf-8")))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"README.md"}
    assert pages and pages <= index


@pytest.mark.parametrize("document", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_that_exists(document: Path) -> None:
    assert broken_links(document) == []


def test_the_links_are_found_at_all() -> None:
    found = [t for d in documents() for t in LINK.findall(prose(d.read_text(encoding="utf-8")))]
    assert len([t for t in found if not t.startswith(EXTERNAL)]) > 50


def test_the_configuration_reference_names_every_key_of_the_model() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    reference = readme[readme.index("## Configuration reference") :]
    reference = reference[: reference.index("\n## ", 1)]
    schema = json_schema()
    keys = set(schema["properties"])
    for definition in schema["$defs"].values():
        keys |= set(definition["properties"])
    assert {"maxRunningAgents", "mcpServers", "headers", "options"} <= keys  # the walk saw them
    missing = [k for k in sorted(keys) if not re.search(rf"\b{k}:", reference)]
    assert missing == []


def yaml_examples() -> list[tuple[str, str]]:
    found = []
    for document in documents():
        for block in YAML_BLOCK.findall(document.read_text(encoding="utf-8")):
            found.append((str(document.relative_to(ROOT)), block))
    return found


def test_every_yaml_example_is_a_configuration_without_problems() -> None:
    examples = yaml_examples()
    assert len(examples) >= 3
    for where, text in examples:
        validation = validate_text(text)
        problems = [f"{p.line}:{p.column} {p.message}" for p in validation.problems]
        assert (where, problems) == (where, [])


def test_the_screenshot_is_a_real_png_of_the_window_size() -> None:
    shot = (ROOT / "docs" / "screenshot.png").read_bytes()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(shot[16:20], "big"), int.from_bytes(shot[20:24], "big")
    assert (width, height) == (1280, 820)
    assert len(shot) < 300_000  # small enough for a README


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading: with `code`\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading-with-code) [web](https://example.com)\n"
        "[gone](missing.md) [gone](missing.md#too)\n"
        "[no heading](there.md#nowhere) [self](#nor-here)\n"
        "`[not a link](missing-too.md)`\n"
        "```\n[nor this](missing-three.md)\n```\n"
        "## Here\n[self ok](#here)\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["missing.md", "missing.md#too", "there.md#nowhere", "#nor-here"]
