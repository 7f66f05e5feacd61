"""The registry in use: fetched from a server on 127.0.0.1, cached with its date, the cache used
when the fetch fails, the built-in list when there is neither; a bad file keeps the cache."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from app.agents.gallery.registry import REGISTRY_URL_ENV, Registry
from tests.gallery_server import GalleryServer, registry_document
from tests.unit.agents.gallery.test_registry_file import npx_agent


def refreshed(folder: Path) -> Registry:
    async def run() -> Registry:
        registry = Registry(folder)
        await registry.load_cache()
        await registry.refresh()
        return registry

    return asyncio.run(run())


def test_fetched_cached_then_the_cache_used_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "registry"
    with GalleryServer() as server:
        server.serve("/registry.json", registry_document([npx_agent("first")]))
        monkeypatch.setenv(REGISTRY_URL_ENV, server.url("/registry.json"))
        registry = refreshed(folder)
        info = registry.info()
        assert (info.source, info.error, info.url) == ("registry", "", server.url("/registry.json"))
        assert info.fetched_at.endswith("Z") and info.fetched_at[:2] == "20"
        assert [a.id for a in registry.agents] == ["first"]
        meta = json.loads((folder / "fetched.json").read_text(encoding="utf-8"))
        assert meta["fetchedAt"] == info.fetched_at

        server.serve("/registry.json", b"<html>maintenance</html>")  # a bad file: cache kept
        registry = refreshed(folder)
        assert registry.info().source == "cache"
        assert registry.info().error == "the registry file is not JSON"
        assert registry.info().fetched_at == info.fetched_at
        assert [a.id for a in registry.agents] == ["first"]
        assert (folder / "registry.json").read_bytes() == registry_document([npx_agent("first")])
        url = server.url("/registry.json")
    registry = refreshed(folder)  # the server is gone
    assert registry.info().source == "cache"
    assert registry.info().error.startswith(f"{url} could not be reached")


def test_the_builtin_list_without_cache_nor_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with GalleryServer() as server:
        url = server.url("/missing.json")
        monkeypatch.setenv(REGISTRY_URL_ENV, url)
        registry = refreshed(tmp_path / "registry")
    assert registry.info().source == "builtin"
    assert registry.info().error == f"{url} answered 404 Not Found"
    assert [a.id for a in registry.agents][:2] == ["claude-acp", "codex-acp"]
    assert not (tmp_path / "registry").exists()


def test_off_fetches_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REGISTRY_URL_ENV, "off")
    registry = refreshed(tmp_path / "registry")
    assert (registry.info().source, registry.info().error, registry.info().url) == (
        "builtin", "", "off"
    )  # fmt: skip


def test_a_damaged_cache_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REGISTRY_URL_ENV, "off")
    folder = tmp_path / "registry"
    folder.mkdir()
    (folder / "registry.json").write_bytes(b"{broken")
    (folder / "fetched.json").write_text('{"fetchedAt": "2026-01-01T00:00:00Z"}')
    assert refreshed(folder).info().source == "builtin"
