"""The gallery end to end, headless: a registry and an agent archive served on 127.0.0.1,
listed in the catalog, installed (progress, sha256 checked, unpacked), added to a commented
YAML, started and answering, updated, removed; a wrong sha256 and a Cancel leave nothing."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.errors import UserError
from app.paths import app_config_dir
from tests.agents import FAKE
from tests.gallery_server import (
    AGENT_ID,
    GalleryServer,
    agent_archive,
    binary_entry,
    path_program,
    registry_document,
    serve_gallery,
    sha256_of,
)
from tests.waiting import EventLog, wait_for

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)
COMMENTED = """\
# my agents
theme: dark

agents:   # in this order
  - name: demo   # the offline one
    builtin: demo
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(COMMENTED, encoding="utf-8", newline="\n")
    return path


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[GalleryServer]:
    with serve_gallery() as served:
        monkeypatch.setenv("SIDEKICKS_REGISTRY_URL", served.url("/registry.json"))
        yield served


def agents_folder() -> Path:
    return app_config_dir() / "agents"


def left_behind() -> list[str]:
    folder = agents_folder()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def entry(sk: Sidekicks, entry_id: str) -> Any:
    return next(e for e in sk.api.AgentService.Catalog() if e.id == entry_id)


def test_install_add_answer_update_and_remove(
    config: Path, server: GalleryServer, tmp_path: Path
) -> None:
    log = EventLog()
    work = tmp_path / "work"
    work.mkdir()
    with Sidekicks(config=config, tuning=FAST) as sk:
        sk.events.subscribe(log)
        info = sk.api.GalleryService.Refresh()
        assert (info.source, info.error) == ("registry", "")
        listed = entry(sk, AGENT_ID)
        assert (listed.kind, listed.version, listed.installed) == ("binary", "1.0.0", "")
        assert listed.needs == ["it needs to be installed"]
        with pytest.raises(UserError, match="not installed yet"):
            sk.api.AgentService.Add(AGENT_ID, "", "")

        installed = sk.api.GalleryService.Install(AGENT_ID)
        assert (installed.installed, installed.needs, installed.update) == ("1.0.0", [], False)
        phases = [p["phase"] for p in log.named("install:progress")]
        assert phases[0] == "download" and phases[-3:] == ["verify", "unpack", "done"]
        sizes = [p for p in log.named("install:progress") if p["phase"] == "download"]
        assert sizes[-1]["done"] == sizes[-1]["total"] > 0
        assert left_behind() == [AGENT_ID]  # no temporary folder left

        added = sk.api.AgentService.Add(AGENT_ID, "", str(work))
        assert (added.name, added.title, added.state) == ("fake-agent", "Fake Agent", "stopped")
        text = config.read_text(encoding="utf-8")
        assert text.startswith(COMMENTED)  # the comments and order kept, the agent appended
        assert "  - name: fake-agent\n    title: Fake Agent\n" in text
        assert f"    cwd: {work}" in text
        assert entry(sk, AGENT_ID).added == ["fake-agent"]
        with pytest.raises(UserError, match="already named `fake-agent`"):
            sk.api.AgentService.Add(AGENT_ID, "fake-agent", "")
        with pytest.raises(UserError, match="does not exist"):
            sk.api.AgentService.Add(AGENT_ID, "", str(tmp_path / "nowhere"))

        channel = sk.api.ChannelService.Direct("fake-agent").id
        since = log.mark()
        sk.api.ChannelService.Send(channel, "hello")
        answer = log.wait(
            "message:updated",
            lambda p: p["message"]["role"] == "agent" and p["message"]["done"],
            timeout=20,
            since=since,
        )["message"]
        assert [p["text"] for p in answer["parts"] if p["kind"] == "text"] == ["echo: hello"]

        newer = agent_archive()
        server.serve("/agent-2.tar.gz", newer)
        url = server.url("/agent-2.tar.gz")
        server.serve(
            "/registry.json",
            registry_document([binary_entry(AGENT_ID, url, sha256_of(newer), "1.1.0")]),
        )
        sk.api.GalleryService.Refresh()
        assert entry(sk, AGENT_ID).update is True
        assert sk.api.GalleryService.Install(AGENT_ID).installed == "1.1.0"
        assert sorted(p.name for p in (agents_folder() / AGENT_ID).iterdir()) == [
            "1.0.0",
            "1.1.0",
        ]  # fmt: skip: the running agent's version is kept

        sk.api.AgentService.Stop("fake-agent")
        sk.api.AgentService.Remove("fake-agent")
        assert config.read_text(encoding="utf-8") == COMMENTED
        assert [a.name for a in sk.api.AgentService.List()] == ["demo"]
        with pytest.raises(UserError, match="no agent is named"):
            sk.api.AgentService.Remove("fake-agent")


def test_a_wrong_sha256_is_refused_and_nothing_is_left(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = EventLog()
    with GalleryServer() as server:
        server.serve("/agent.tar.gz", agent_archive())
        wrong = binary_entry(AGENT_ID, server.url("/agent.tar.gz"), "0" * 64)
        server.serve("/registry.json", registry_document([wrong]))
        monkeypatch.setenv("SIDEKICKS_REGISTRY_URL", server.url("/registry.json"))
        with Sidekicks(config=config) as sk:
            sk.events.subscribe(log)
            sk.api.GalleryService.Refresh()
            with pytest.raises(UserError) as refused:
                sk.api.GalleryService.Install(AGENT_ID)
            assert str(refused.value).startswith("Fake Agent could not be installed: its sha256 is")
            assert "the registry says " + "0" * 64 in str(refused.value)
            failed = log.named("install:progress")[-1]
            assert (failed["phase"], failed["error"]) == ("failed", str(refused.value))
            assert entry(sk, AGENT_ID).installed == ""
    assert left_behind() == []


def test_cancel_mid_download_leaves_nothing(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = EventLog()
    with GalleryServer() as server:
        archive = agent_archive(padding=256 * 1024)
        server.serve("/agent.tar.gz", archive)
        opened = server.gate("/agent.tar.gz", after=len(archive) // 2)
        entry_ = binary_entry(AGENT_ID, server.url("/agent.tar.gz"), sha256_of(archive))
        server.serve("/registry.json", registry_document([entry_]))
        monkeypatch.setenv("SIDEKICKS_REGISTRY_URL", server.url("/registry.json"))
        with Sidekicks(config=config) as sk:
            sk.events.subscribe(log)
            sk.api.GalleryService.Refresh()
            outcome: list[BaseException] = []

            def install() -> None:
                try:
                    sk.api.GalleryService.Install(AGENT_ID)
                except BaseException as err:
                    outcome.append(err)

            thread = threading.Thread(target=install)
            thread.start()
            log.wait("install:progress", lambda p: p["phase"] == "download" and p["done"] > 0)
            assert sk.api.GalleryService.CancelInstall(AGENT_ID) is True
            # The server still holds the rest back: the Cancel itself ends the blocked read
            # (the read timeout is 10 s).
            thread.join(5)
            opened.set()
            assert not thread.is_alive()
            assert [str(e) for e in outcome] == ["the install of Fake Agent was cancelled"]
            assert log.named("install:progress")[-1]["phase"] == "cancelled"
            assert sk.api.GalleryService.CancelInstall(AGENT_ID) is False
            wait_for(lambda: left_behind() == [], what="the temporary folder removed")


def test_choose_folder_answers_from_the_test_hook_or_nothing_headless(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sidekicks(config=config) as sk:
        assert sk.api.GalleryService.ChooseFolder() == ""  # no window, no dialog
        monkeypatch.setenv("SIDEKICKS_TEST_FOLDER_PATH", str(tmp_path))
        assert sk.api.GalleryService.ChooseFolder() == str(tmp_path)
        info = sk.api.GalleryService.RegistryInfo()
        assert (info.source, info.url, info.error) == ("builtin", "off", "")


def test_add_is_refused_with_the_problems_when_the_file_has_some(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked like a Save: the file's own problem refuses the edit, and the file is kept."""
    config = tmp_path / "broken.yaml"
    broken = "agents:\n  - name: demo\n    builtin: demo\nlimits:\n  maxRunningAgents: 0\n"
    config.write_text(broken, encoding="utf-8", newline="\n")
    with Sidekicks(config=config) as sk:
        with pytest.raises(
            UserError, match=r"^the agent was not added: `maxRunningAgents` must be at least 1$"
        ):
            sk.api.AgentService.Add("claude-acp", "", "")
        with pytest.raises(UserError, match="`nothing` is not in the gallery"):
            sk.api.AgentService.Add("nothing", "", "")
    assert config.read_text(encoding="utf-8") == broken


FAKE_NPX = """\
import os, subprocess, sys
cache = os.path.join(os.environ["NPM_CONFIG_CACHE"], "_npx", "0123abcd", "node_modules")
if not os.path.isdir(cache):  # the package, as npx unpacks it on a first run only
    os.makedirs(cache)
    with open(os.path.join(cache, "package.tgz"), "wb") as out:
        out.write(b"p" * 4096)
sys.exit(subprocess.call([sys.executable, {fake!r}]))
"""


def test_an_npx_agents_first_start_shows_its_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake npx on PATH that fills the npm cache, then runs the fake agent: its first start
    reports the download (named by agent and registry entry), then done; the next start
    downloads nothing and reports nothing."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    path_program(bin_folder, "npx", FAKE_NPX.format(fake=FAKE))
    monkeypatch.setenv("NPM_CONFIG_CACHE", str(tmp_path / "npm"))
    monkeypatch.setenv("PATH", str(bin_folder) + os.pathsep + os.environ["PATH"])
    config = tmp_path / "npx.yaml"
    config.write_text(
        "agents:\n  - name: claude\n"
        '    command: [npx, -y, "@agentclientprotocol/claude-agent-acp"]\n',
        encoding="utf-8",
    )
    log = EventLog()
    with Sidekicks(config=config, tuning=FAST) as sk:
        sk.events.subscribe(log)
        sk.api.AgentService.Start("claude")
        done = log.wait("install:progress", lambda p: p["phase"] == "done")
        assert done == {"id": "claude-acp", "agent": "claude", "phase": "done", "done": 4096,
                        "total": 0, "error": ""}  # fmt: skip
        downloads = [p for p in log.named("install:progress") if p["phase"] == "download"]
        assert downloads and downloads[-1]["done"] == 4096
        sk.api.AgentService.Stop("claude")
        since = log.mark()
        sk.api.AgentService.Start("claude")
        sk._core.run(sk._gallery._first_starts.wait())  # the watch has ended
        assert log.named("install:progress", since) == []
        sk.api.AgentService.Stop("claude")
