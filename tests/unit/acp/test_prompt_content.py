"""Typed prompt blocks as ACP content blocks, per what the agent declared (issue 15)."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from acp.schema import AgentCapabilities

from app.acp import prompt_content
from app.acp.prompt_content import AttachmentUnreadable, prompt_support, sdk_prompt
from app.acp.prompts import PromptFile, PromptSupport, PromptText

RICH = PromptSupport(declared=True, image=True, embedded=True)


def kinds(blocks: list[Any]) -> list[str]:
    return [b.type for b in blocks]


def test_an_agent_silent_about_prompts_declared_nothing_and_an_explicit_answer_counts() -> None:
    assert prompt_support(None) == PromptSupport()
    assert prompt_support(AgentCapabilities()) == PromptSupport()
    said = AgentCapabilities.model_validate({"promptCapabilities": {"image": True}})
    assert prompt_support(said) == PromptSupport(declared=True, image=True, embedded=False)


def test_a_binary_file_is_a_link_even_when_embedding_is_allowed(tmp_path: Path) -> None:
    blob = tmp_path / "a.dat"
    blob.write_bytes(b"abc\0def")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("é".encode("latin-1"))
    blocks = sdk_prompt(
        [PromptText("x"), PromptFile(str(blob), "a.dat"), PromptFile(str(latin), "latin.txt")],
        RICH,
    )
    assert kinds(blocks) == ["text", "resource_link", "resource_link"]


def test_an_image_past_the_limit_or_for_an_agent_without_images_is_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    image = tmp_path / "i.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    file = PromptFile(str(image), "i.png", "image/png", 72, image=True)
    assert kinds(sdk_prompt([file], RICH)) == ["image"]
    assert kinds(sdk_prompt([file], PromptSupport(True, False, True))) == ["resource_link"]
    monkeypatch.setattr(prompt_content, "IMAGE_LIMIT", 10)
    assert kinds(sdk_prompt([file], RICH)) == ["resource_link"]


def test_a_prompt_of_files_alone_has_no_empty_text_block_and_an_empty_prompt_has_one(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "n.txt"
    notes.write_text("hi", encoding="utf-8")
    assert kinds(sdk_prompt([PromptText(""), PromptFile(str(notes), "n.txt")], RICH)) == [
        "resource"
    ]
    assert kinds(sdk_prompt([PromptText("")], RICH)) == ["text"]


def test_a_missing_file_is_said_in_the_text_whatever_the_agent_takes(tmp_path: Path) -> None:
    gone = PromptFile(str(tmp_path / "gone.txt"), "gone.txt", "text/plain", 3)
    blocks = sdk_prompt([PromptText("look"), gone], RICH)
    assert kinds(blocks) == ["text"]
    assert "gone.txt — this file no longer exists" in blocks[0].text


def refusal_within(blocks: list[Any], support: PromptSupport) -> BaseException:
    """What `sdk_prompt` raises, which must come within seconds (not a thread left waiting)."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(sdk_prompt(blocks, support))
        except BaseException as error:  # handed to the test's thread
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "the prompt waited for a writer of the pipe"
    assert isinstance(outcome[0], BaseException), outcome[0]
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_in_place_of_an_attached_file_is_refused_with_a_sentence_not_waited_on(
    tmp_path: Path,
) -> None:
    pipe = tmp_path / "notes.txt"
    os.mkfifo(pipe)
    try:
        refused = refusal_within([PromptText("look"), PromptFile(str(pipe), "notes.txt")], RICH)
        assert isinstance(refused, AttachmentUnreadable)
        assert str(refused) == f"an attached file was not sent: {pipe} is not a regular file"
        # an agent given a line only is not told of a pipe as if it were the file
        lined = refusal_within([PromptFile(str(pipe), "notes.txt")], PromptSupport())
        assert isinstance(lined, AttachmentUnreadable)
    finally:  # a reader left waiting by a regression is let go
        with contextlib.suppress(OSError):
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))


def test_a_link_in_place_of_an_attached_file_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    notes = tmp_path / "notes.txt"
    try:
        notes.symlink_to(secret)
    except OSError:
        pytest.skip("this system does not let us make links")
    with pytest.raises(AttachmentUnreadable, match="is a link"):
        sdk_prompt([PromptFile(str(notes), "notes.txt")], RICH)
