"""A write outside the agent's folders waits for the person's permission."""

from __future__ import annotations

from tests.integration.workspace.conftest import Desk


def test_an_outside_write_is_asked_and_written_when_allowed(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.outside / "allowed.txt"
    mark = desk.send(room, [{"write": str(target), "text": "yes\n"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    assert asked["toolCall"]["title"] == f"Write outside the workspace: {target}"
    assert [o["optionId"] for o in asked["options"]] == ["allow", "reject"]
    assert not target.exists()  # nothing before the answer
    desk.channels.AnswerPermission(asked["id"], "allow")
    assert desk.results(room, "writer", mark) == [{"write": str(target), "ok": True}]
    assert target.read_text(encoding="utf-8") == "yes\n"
    assert [c.path for c in desk.sk.api.ChangesService.Changes(room)] == [str(target)]


def test_a_rejected_outside_write_is_an_error_for_the_agent_and_writes_nothing(
    desk: Desk,
) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.outside / "refused.txt"
    mark = desk.send(room, [{"write": str(target), "text": "no\n"}])
    asked = desk.log.wait("permission:requested", since=mark, timeout=20)
    desk.channels.AnswerPermission(asked["id"], "reject")
    result = desk.results(room, "writer", mark)[0]
    assert result["error"]["code"] == -32000
    assert "outside" in result["error"]["message"]
    assert not target.exists()
    assert desk.sk.api.ChangesService.Changes(room) == []


def test_a_folder_listed_in_the_configuration_is_written_without_asking(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.extra / "listed.txt"
    mark = desk.send(room, [{"write": str(target), "text": "ok\n"}])
    assert desk.results(room, "writer", mark) == [{"write": str(target), "ok": True}]
    assert desk.log.named("permission:requested", since=mark) == []
