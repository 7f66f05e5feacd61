"""The registry's v1 file as untrusted input: good entries kept, bad ones skipped, a bad file
refused with a sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.agents.gallery.registry_file import (
    MAX_AGENTS,
    MAX_FILE_BYTES,
    RegistryFileError,
    allowed_download,
    parse_registry,
    safe_cmd,
)

SHA = "a" * 64


def doc(*agents: Any) -> bytes:
    return json.dumps({"version": "1.0.0", "agents": list(agents)}).encode()


def npx_agent(agent_id: str = "claude-acp", **extra: Any) -> dict[str, Any]:
    return {
        "id": agent_id,
        "name": "Claude Code",
        "version": "0.16.0",
        "description": "ACP wrapper",
        "icon": "https://cdn.example/claude.svg",
        "distribution": {"npx": {"package": "@agentclientprotocol/claude-agent-acp@0.16.0"}},
        **extra,
    }


def binary_agent(targets: dict[str, Any]) -> dict[str, Any]:
    return {"id": "tool", "name": "Tool", "version": "1.0.0", "distribution": {"binary": targets}}


def test_a_real_looking_file_is_read_with_unknown_fields_ignored() -> None:
    agents = parse_registry(
        doc(
            npx_agent(authors=["A"], future_field=1),
            binary_agent(
                {
                    "linux-x86_64": {
                        "archive": "https://example.com/t.tar.gz",
                        "sha256": SHA,
                        "cmd": "./tool",
                        "args": ["acp"],
                        "env": {"X": "1"},
                    }
                }
            ),
        )
    )
    assert [a.id for a in agents] == ["claude-acp", "tool"]
    npx = agents[0].distribution.npx
    assert npx is not None and npx.package.endswith("@0.16.0")
    target = (agents[1].distribution.binary or {})["linux-x86_64"]
    assert (target.cmd, target.args, target.env, target.sha256) == (
        "./tool",
        ["acp"],
        {"X": "1"},
        SHA,
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"id": "Bad Id", "name": "x", "distribution": {"npx": {"package": "p"}}},
        {"id": "noname", "distribution": {"npx": {"package": "p"}}},
        {"id": "nodist", "name": "x", "distribution": {}},
        {"id": "emptypkg", "name": "x", "distribution": {"npx": {"package": ""}}},
        {"id": "toolong", "name": "x" * 101, "distribution": {"npx": {"package": "p"}}},
        "not an object",
        {"id": "args", "name": "x", "distribution": {"npx": {"package": "p", "args": "a"}}},
    ],
)
def test_a_bad_entry_is_skipped_and_the_others_kept(bad: Any) -> None:
    assert [a.id for a in parse_registry(doc(bad, npx_agent()))] == ["claude-acp"]


@pytest.mark.parametrize(
    "target",
    [
        {"archive": "http://example.com/t.tgz", "cmd": "./t"},  # plain http elsewhere
        {"archive": "file:///etc/passwd", "cmd": "./t"},
        {"archive": "https://example.com/t.tgz", "cmd": "/bin/sh"},
        {"archive": "https://example.com/t.tgz", "cmd": "../../t"},
        {"archive": "https://example.com/t.tgz", "cmd": "C:\\t.exe"},
        {"archive": "https://example.com/t.tgz", "cmd": "./t", "sha256": "xyz"},
    ],
)
def test_an_unsafe_binary_target_is_dropped(target: dict[str, str]) -> None:
    """The target goes; an entry left with nothing to run goes with it."""
    assert parse_registry(doc(binary_agent({"linux-x86_64": target}))) == []
    kept = binary_agent(
        {"linux-x86_64": target, "darwin-aarch64": {"archive": "https://e.com/a", "cmd": "a"}}
    )
    [agent] = parse_registry(doc(kept))
    assert list(agent.distribution.binary or {}) == ["darwin-aarch64"]


def test_unknown_platform_keys_are_dropped() -> None:
    entry = binary_agent({"plan9-mips": {"archive": "https://e.com/a", "cmd": "a"}})
    assert parse_registry(doc(entry)) == []


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"<html>", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", "no list of agents"),
        (b'{"agents": {}}', "no list of agents"),
        (b" " * (MAX_FILE_BYTES + 1), "larger than 4 MiB"),
        (b"[" * 100_000, "not JSON"),
    ],
)
def test_a_bad_file_is_refused_with_a_sentence(data: bytes, says: str) -> None:
    with pytest.raises(RegistryFileError, match=says):
        parse_registry(data)


def test_entries_are_capped_and_duplicates_dropped() -> None:
    many = [npx_agent(f"a{i}") for i in range(MAX_AGENTS + 5)] + [npx_agent("a1")]
    agents = parse_registry(doc(*many))
    assert len(agents) == MAX_AGENTS
    assert len({a.id for a in agents}) == MAX_AGENTS


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://github.com/x/releases/a.zip", True),
        ("http://127.0.0.1:8000/a.zip", True),
        ("http://localhost/a.zip", True),
        ("http://[::1]/a.zip", True),
        ("http://example.com/a.zip", False),
        ("ftp://example.com/a.zip", False),
        ("https:///a.zip", False),
    ],
)
def test_downloads_are_https_or_this_machine(url: str, allowed: bool) -> None:
    assert allowed_download(url) is allowed


@pytest.mark.parametrize(
    ("cmd", "safe"),
    [("./codex-acp", True), ("bin/tool.exe", True), ("../x", False), ("/x", False), (".", False)],
)
def test_cmd_stays_in_its_folder(cmd: str, safe: bool) -> None:
    assert safe_cmd(cmd) is safe
