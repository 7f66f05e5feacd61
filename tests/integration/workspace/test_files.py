"""Agents read and write the person's files through Sidekicks (issue 15: fs capabilities)."""

from __future__ import annotations

import os

import pytest

from tests.integration.workspace.conftest import Desk


def test_an_agent_writes_a_file_and_reads_it_back_whole_or_by_lines(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    path = desk.work / "notes.txt"
    results = desk.run(
        room,
        [
            {"write": str(path), "text": "one\ntwo\nthree\nfour\n"},
            {"read": str(path)},
            {"read": str(path), "line": 2, "limit": 2},
        ],
    )
    assert results[0] == {"write": str(path), "ok": True}
    assert results[1]["content"] == "one\ntwo\nthree\nfour\n"
    assert results[2]["content"] == "two\nthree\n"
    assert path.read_text(encoding="utf-8") == "one\ntwo\nthree\nfour\n"


def test_the_agent_is_offered_the_file_capabilities(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    assert desk.run(room, [{"read": str(desk.work / "missing")}])[0]["error"]
    # the agent could ask at all: the connection advertised fs in `initialize`
    from app.acp.handshake import client_capabilities

    fs = client_capabilities().fs
    assert fs is not None and fs.read_text_file and fs.write_text_file


def test_bad_paths_get_an_error_the_agent_can_read(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    binary = desk.work / "image.bin"
    binary.write_bytes(b"\x89PNG\x00\x01\x02")
    latin = desk.work / "latin.txt"
    latin.write_bytes("café".encode("latin-1"))
    results = desk.run(
        room,
        [
            {"read": "relative/notes.txt"},
            {"read": str(desk.work / "missing.txt")},
            {"read": str(binary)},
            {"read": str(latin)},
            {"read": str(desk.work)},
            {"write": "notes.txt", "text": "x"},
            {"write": str(desk.work), "text": "x"},
        ],
    )
    errors = [r["error"] for r in results]
    assert errors[0]["code"] == -32602 and "absolute" in errors[0]["message"]
    assert errors[1]["code"] == -32002 and "missing.txt" in errors[1]["message"]
    assert errors[2]["code"] == -32602 and "binary" in errors[2]["message"]
    assert "UTF-8" in errors[3]["message"] and "latin.txt" in errors[3]["message"]
    assert "folder" in errors[4]["message"]
    assert errors[5]["code"] == -32602
    assert "folder" in errors[6]["message"]
    assert not (desk.work / "relative").exists()


def test_a_write_creates_missing_folders_inside_the_agent_folders(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    deep = desk.extra / "a" / "b" / "new.txt"
    results = desk.run(room, [{"write": str(deep), "text": "deep\n"}])
    assert all(r.get("ok") for r in results), results
    assert deep.read_text(encoding="utf-8") == "deep\n"
    assert [p.name for p in deep.parent.iterdir()] == ["new.txt"]  # no temporary file left


@pytest.mark.posix_only("POSIX mode bits: Windows keeps only a read-only flag")
def test_a_write_keeps_the_mode_of_the_file_it_replaces(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    script = desk.work / "run.sh"
    script.write_text("echo old\n", encoding="utf-8")
    os.chmod(script, 0o751)
    results = desk.run(room, [{"write": str(script), "text": "echo new\n"}])
    assert all(r.get("ok") for r in results), results
    assert os.stat(script).st_mode & 0o777 == 0o751
    assert [p.name for p in desk.work.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.posix_only("making a symlink needs a privilege on Windows")
def test_a_symlink_out_of_the_folders_does_not_let_a_write_escape(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    (desk.work / "door").symlink_to(desk.outside)
    mark = desk.send(room, [{"write": str(desk.work / "door" / "x.txt"), "text": "x"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    assert str(desk.work / "door" / "x.txt") in asked["toolCall"]["title"]
    desk.channels.AnswerPermission(asked["id"], "reject")
    result = desk.results(room, "writer", mark)[0]
    assert result["error"]["code"] == -32000
    assert not (desk.outside / "x.txt").exists()
