"""Session modes and options kept (issue 14): presets from the YAML for new sessions, the
person's choices kept in history across a restart and applied again to a new session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.integration.channels.conftest import Chat
from tests.integration.channels.session_modes import methods, open_modes_chat, session_changed
from tests.waiting import wait_for

Opener = Callable[[], Chat]


def opener(open_chat: Callable[..., Chat], tmp_path: Path) -> Opener:
    return lambda: open_modes_chat(open_chat, tmp_path)


def values(session: dict[str, Any]) -> dict[str, Any]:
    return {o["id"]: o["value"] for o in session["options"]}


def sent_settings(chat: Chat, agent: str) -> list[tuple[str, Any]]:
    """The modes and options the app asked the agent for, in order."""
    found: list[tuple[str, Any]] = []
    for message in chat.received(agent):
        params = message.get("params") or {}
        if message.get("method") == "session/set_mode":
            found.append(("mode", params["modeId"]))
        elif message.get("method") == "session/set_config_option":
            found.append((params["configId"], params["value"]))
    return found


def answered(chat: Chat, room: str, agent: str, text: str) -> str:
    mark = chat.log.mark()
    chat.channels.Send(room, text)
    answer = chat.finished(room, agent, since=mark)
    chat.idle(room, since=mark)
    return str(answer["parts"][0]["text"])


def test_a_preset_mode_and_option_are_applied_when_a_new_session_opens(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = opener(open_chat, tmp_path)()
    room = chat.channels.Direct("preset").id

    chat.channels.Prepare(room)

    assert sent_settings(chat, "preset") == [("mode", "auto"), ("model", "gpt-5.1-codex-mini")]
    session = chat.channels.Conversation(room)["sessions"]["preset"]
    assert session["mode"] == "auto"
    assert values(session)["model"] == "gpt-5.1-codex-mini"
    assert "mode=auto model=gpt-5.1-codex-mini" in answered(chat, room, "preset", "status")


def test_an_unknown_preset_is_skipped_with_a_note_in_the_agents_log_and_the_session_opens(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = opener(open_chat, tmp_path)()
    room = chat.channels.Direct("wrong").id

    chat.channels.Prepare(room)

    # mode "plan" and model "gpt-9" are not offered; web_search: true is.
    assert sent_settings(chat, "wrong") == [("web_search", True)]
    session = chat.channels.Conversation(room)["sessions"]["wrong"]
    assert (session["mode"], values(session)["web_search"]) == ("read-only", True)
    logs = wait_for(
        lambda: [line for line in chat.sk.api.AgentService.Logs("wrong") if "was skipped" in line]
    )
    assert any("plan" in line for line in logs)
    assert any("gpt-9" in line for line in logs)
    assert "mode=read-only" in answered(chat, room, "wrong", "status")


def test_choices_show_after_a_restart_and_are_applied_again_to_a_new_session(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    open_ = opener(open_chat, tmp_path)
    chat = open_()
    room = chat.channels.Direct("forgetful").id
    chat.sk.api.SessionService.SetMode(room, "forgetful", "full-access")
    chat.sk.api.SessionService.SetOption(room, "forgetful", "web_search", True)
    chat.sk.close()

    again = open_()
    before = again.channels.Conversation(room)["sessions"]["forgetful"]
    assert (before["mode"], values(before)["web_search"]) == ("full-access", True)
    assert len(methods(again, "forgetful", "session/new")) == 1  # shown from history alone

    said = answered(again, room, "forgetful", "status")

    assert "mode=full-access" in said
    assert "web_search=True" in said
    # One session before the restart, a new one after it (this agent cannot load).
    assert len(methods(again, "forgetful", "session/new")) == 2
    assert sent_settings(again, "forgetful")[-2:] == [("mode", "full-access"), ("web_search", True)]


def test_the_persons_choice_wins_over_the_preset_for_a_new_session(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    open_ = opener(open_chat, tmp_path)
    chat = open_()
    room = chat.channels.Direct("stubborn").id
    chat.sk.api.SessionService.SetMode(room, "stubborn", "read-only")  # its preset is "auto"
    chat.sk.close()

    again = open_()
    said = answered(again, room, "stubborn", "status")

    assert "mode=read-only" in said
    assert sent_settings(again, "stubborn")[-1] == ("mode", "read-only")


def test_a_resumed_session_keeps_the_state_the_agent_restored(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    open_ = opener(open_chat, tmp_path)
    chat = open_()
    room = chat.channels.Direct("codex").id
    chat.sk.api.SessionService.SetMode(room, "codex", "auto")
    chat.sk.close()

    again = open_()
    mark = again.log.mark()
    said = answered(again, room, "codex", "status")

    assert len(methods(again, "codex", "session/load")) == 1
    # The fake restores its sessions read-only: the app does not impose the earlier choice.
    assert "mode=read-only" in said
    assert session_changed(again, room, "codex", mark)["session"]["mode"] == "read-only"
    assert again.channels.Conversation(room)["sessions"]["codex"]["mode"] == "read-only"


def test_a_preset_the_agents_last_offer_lacks_is_a_warning_in_the_editor(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = opener(open_chat, tmp_path)()
    chat.channels.Prepare(chat.channels.Direct("codex").id)  # its offer is known from now on
    config = chat.sk.api.ConfigService
    text = config.Content()
    codex = text.index("  - name: codex\n") + len("  - name: codex\n")
    edited = (
        text[:codex]
        + "    mode: turbo\n    options:\n      model: gpt-9\n      speed: fast\n"
        + text[codex:]
    )
    line = text[:codex].count("\n") + 1

    found = [(p.line, p.column, p.message) for p in config.Validate(edited)]

    assert found == [
        (line, 11, "codex last offered no mode turbo (its modes: read-only, auto, full-access)"),
        (line + 2, 14, "codex last offered model: gpt-5.2-codex, gpt-5.1-codex-mini"),
        (line + 3, 7, "codex last offered no option speed (its options: model, reasoning_effort)"),
    ]
    assert all(p.warning for p in config.Validate(edited))
    assert config.Validate(text) == []  # an agent never seen, or no preset: no warning


def test_choices_are_applied_again_when_resuming_the_session_fails(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    open_ = opener(open_chat, tmp_path)
    chat = open_()
    room = chat.channels.Direct("amnesic").id
    chat.sk.api.SessionService.SetMode(room, "amnesic", "plan")
    chat.sk.api.SessionService.SetOption(room, "amnesic", "model", "opus")
    chat.sk.close()

    again = open_()
    said = answered(again, room, "amnesic", "status")

    assert len(methods(again, "amnesic", "session/load")) == 1  # tried, and failed
    assert len(methods(again, "amnesic", "session/new")) == 2
    assert "mode=plan model=opus" in said
    assert sent_settings(again, "amnesic")[-2:] == [("mode", "plan"), ("model", "opus")]
