"""A build of the package is reused only while every file it is made from is unchanged."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.packaging.built_from import digest, package_inputs, remember, still_current


def checkout(root: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("dist/\nbuild/work/\n.venv/\n", encoding="utf-8")
    for name, text in {
        "app/main.py": "print('hi')\n",
        "build/app.spec": "spec\n",
        "tests/test_x.py": "def test(): pass\n",
        "docs/guide.md": "# Guide\n",
        "README.md": "# Readme\n",
        "build/work/cache.bin": "made by the build\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    stamp = root / ".venv" / ".stamps" / "package"
    stamp.parent.mkdir(parents=True)
    stamp.write_text("abc\n", encoding="utf-8")
    return stamp


def test_the_inputs_are_the_files_a_build_reads_not_tests_docs_prose_or_ignored_ones(
    tmp_path: Path,
) -> None:
    checkout(tmp_path)
    (tmp_path / "app" / "new.py").write_text("x = 1\n", encoding="utf-8")  # new, not ignored
    assert package_inputs(tmp_path) == [".gitignore", "app/main.py", "app/new.py", "build/app.spec"]


def test_a_change_to_an_input_or_the_venv_means_a_new_build_and_others_do_not(
    tmp_path: Path,
) -> None:
    stamp = checkout(tmp_path)
    dist = tmp_path / "dist"
    dist.mkdir()
    assert not still_current(dist, digest(tmp_path, stamp))  # never built: no stamp
    remember(dist, digest(tmp_path, stamp))
    assert still_current(dist, digest(tmp_path, stamp))

    (tmp_path / "tests" / "test_x.py").write_text("def test(): assert 1\n", encoding="utf-8")
    (tmp_path / "docs" / "guide.md").write_text("# Changed\n", encoding="utf-8")
    assert still_current(dist, digest(tmp_path, stamp))

    (tmp_path / "app" / "main.py").write_text("print('changed')\n", encoding="utf-8")
    assert not still_current(dist, digest(tmp_path, stamp))
    remember(dist, digest(tmp_path, stamp))
    stamp.write_text("other packages\n", encoding="utf-8")
    assert not still_current(dist, digest(tmp_path, stamp))

    remember(dist, digest(tmp_path, stamp))
    (tmp_path / "build" / "app.spec").unlink()  # a deleted input counts too
    assert not still_current(dist, digest(tmp_path, stamp))


def test_outside_a_checkout_nothing_is_ever_reused(tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    stamp.write_text("abc\n", encoding="utf-8")
    assert digest(tmp_path, stamp) == ""
    remember(tmp_path, "")
    assert not still_current(tmp_path, "")
