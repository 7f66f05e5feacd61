"""The agents' folders are a boundary (issue 24), tried as a hostile agent would through the real
app: links made to lead writes and reverts out, "always allow" rules, Sidekicks' own files, text
that is not UTF-8."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.paths import app_config_dir, data_dir, secrets_dir
from tests.integration.workspace.conftest import WORKSPACE_AGENT, Desk

posix_links = pytest.mark.posix_only("making a symlink needs a privilege on Windows")


@posix_links
def test_the_prompt_and_the_record_name_the_file_a_link_leads_to(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    real = desk.outside / "notes.txt"
    real.write_text("before\n", encoding="utf-8")
    link = desk.work / "notes.txt"
    link.symlink_to(real)
    mark = desk.send(room, [{"write": str(link), "text": "after\n"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    title = asked["toolCall"]["title"]
    assert title == f"Write outside the workspace: {real} (reached through the link {link})"
    assert asked["toolCall"]["locations"][0]["path"] == str(real)
    assert asked["askedBySidekicks"] is True
    desk.channels.AnswerPermission(asked["id"], "allow")
    assert desk.results(room, "writer", mark) == [{"write": str(link), "ok": True}]
    assert real.read_text(encoding="utf-8") == "after\n"
    assert link.is_symlink()  # the link was followed, not replaced
    [change] = desk.sk.api.ChangesService.Changes(room)
    assert (change.path, change.through_link) == (str(real), str(link))


@posix_links
def test_a_revert_refuses_a_file_that_a_link_made_since_leads_outside(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    sub = desk.work / "sub"
    sub.mkdir()
    (sub / "a.txt").write_text("A0", encoding="utf-8")
    actions = [
        {"write": str(sub / "a.txt"), "text": "A1"},
        {"write": str(sub / "new.txt"), "text": "N1"},
    ]
    assert all(r.get("ok") for r in desk.run(room, actions))
    # The agent, with files of its own folder only, puts a link where its folder was, to a
    # place holding the same texts: a revert that followed it would delete and overwrite there.
    sub.rename(desk.work / "sub.old")
    victim = desk.outside / "victim"
    victim.mkdir()
    (victim / "a.txt").write_text("A1", encoding="utf-8")
    (victim / "new.txt").write_text("N1", encoding="utf-8")
    sub.symlink_to(victim)
    ids = [c.id for c in desk.sk.api.ChangesService.Changes(room)]
    with pytest.raises(UserError) as refused:
        desk.sk.api.ChangesService.Revert(room, ids)
    assert f"now leads to {victim}" in str(refused.value)
    assert "nothing was reverted" in str(refused.value)
    assert (victim / "a.txt").read_text(encoding="utf-8") == "A1"
    assert (victim / "new.txt").read_text(encoding="utf-8") == "N1"
    assert not any(c.reverted for c in desk.sk.api.ChangesService.Changes(room))


def test_an_always_allow_rule_for_edits_never_answers_an_outside_write(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    mark = desk.send(room, [{"ask": "Edit README.md", "kind": "edit"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    assert asked["askedBySidekicks"] is False
    desk.channels.AnswerPermission(asked["id"], "always")
    assert desk.results(room, "writer", mark)[0]["outcome"]["optionId"] == "always"
    assert [r.kind for r in desk.sk.api.InboxService.PermissionRules()] == ["edit"]

    # The rule answers the agent's own edit questions from now on...
    again = desk.run(room, [{"ask": "Edit setup.py", "kind": "edit"}])
    assert again[0]["outcome"]["optionId"] == "always"
    # ...but not Sidekicks' question about a write outside the agent's folders.
    target = desk.outside / "escape.txt"
    mark = desk.send(room, [{"write": str(target), "text": "x"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    assert asked["askedBySidekicks"] is True
    assert "allowedByRule" not in asked["toolCall"] or not asked["toolCall"]["allowedByRule"]
    assert not target.exists()
    desk.channels.AnswerPermission(asked["id"], "reject")
    assert desk.results(room, "writer", mark)[0]["error"]["code"] == -32000
    assert not target.exists()


def test_a_lone_surrogate_is_a_clear_error_for_the_agent(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.work / "odd.txt"
    [result] = desk.run(room, [{"write": str(target), "text": "a\ud800b"}])
    assert result["error"]["code"] == -32602
    assert "cannot be written as UTF-8" in result["error"]["message"]
    assert "offset 1" in result["error"]["message"]
    assert not target.exists()


def homeless_config(desk: Desk) -> Path:
    """A configuration whose agent has no `cwd` (it runs in the home folder), kept in the
    home folder as a person's would be."""
    home = Path.home()
    config = home / "sidekicks.yaml"
    command = json.dumps([sys.executable, WORKSPACE_AGENT])
    config.write_text(f"agents:\n  - name: homeless\n    command: {command}\n", encoding="utf-8")
    return config


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("USERPROFILE", str(folder))
    return folder


def test_an_agent_never_writes_sidekicks_own_files_and_asks_for_the_home_folder(
    desk: Desk, home: Path
) -> None:
    config = homeless_config(desk)
    desk.sk.api.ConfigService.Open(str(config))
    room = desk.channels.Direct("homeless").id
    app = app_config_dir()
    targets = [
        config,  # the configuration open, in the agent's (home) folder
        app / "config.yaml",
        data_dir(config) / "planted.txt",
        secrets_dir() / "signins.json",
        app / "run" / "agents-1.json",
    ]
    mark = desk.log.mark()
    before = config.read_text(encoding="utf-8")
    for target in targets:
        [result] = desk.run(
            room, [{"write": str(target), "text": 'folders: ["/"]\n'}], agent="homeless"
        )
        assert result["error"]["code"] == -32000, target
        assert "Sidekicks' own files" in result["error"]["message"]
    assert not desk.log.named("permission:requested", since=mark)  # refused, never asked
    assert config.read_text(encoding="utf-8") == before
    assert not (data_dir(config) / "planted.txt").exists()

    # The home folder is not the agent's folder: a write there is asked.
    mark = desk.send(room, [{"write": str(home / ".bashrc"), "text": "evil"}], agent="homeless")
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    assert "no folder of its own" in asked["toolCall"]["title"]
    desk.channels.AnswerPermission(asked["id"], "reject")
    assert desk.results(room, "homeless", mark)[0]["error"]["code"] == -32000
    assert not (home / ".bashrc").exists()


def test_an_agent_never_reads_the_secrets_or_the_history(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    secrets = secrets_dir()
    secrets.mkdir(parents=True, exist_ok=True)
    (secrets / "secrets.json").write_text('{"KEY": "s3cret"}', encoding="utf-8")
    history = next(data_dir(desk.sk.config_path).glob("*.mdb"), None)
    assert history is not None
    for target in (secrets / "secrets.json", history):
        [result] = desk.run(room, [{"read": str(target)}])
        assert result["error"]["code"] == -32000, target
        assert "Sidekicks' own files" in result["error"]["message"]
    # A hard link in the agent's folder to the secrets is the secrets.
    os.link(secrets / "secrets.json", desk.work / "innocent.json")
    [result] = desk.run(room, [{"read": str(desk.work / "innocent.json")}])
    assert "Sidekicks' own files" in result["error"]["message"]
    # The configuration stays readable (the person may ask for help with it).
    [result] = desk.run(room, [{"read": str(desk.sk.config_path)}])
    assert "agents:" in result["content"]
