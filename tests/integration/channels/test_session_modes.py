"""Members' session modes and options (issue 14): what the agent offers shows in Conversation,
SetMode/SetOption round trips, the agent's own changes, refusals with what it offers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import UserError
from tests.integration.channels.conftest import Chat
from tests.integration.channels.session_modes import methods, open_modes_chat, session_changed


@pytest.fixture
def modes_chat(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    return open_modes_chat(open_chat, tmp_path)


def opened(chat: Chat, agent: str) -> tuple[str, dict[str, Any]]:
    """A direct conversation with `agent` whose session is open, and its session as shown."""
    room = chat.channels.Direct(agent)
    chat.channels.Prepare(room.id)
    return room.id, chat.channels.Conversation(room.id)["sessions"][agent]


def option(session: dict[str, Any], option_id: str) -> dict[str, Any]:
    return next(o for o in session["options"] if o["id"] == option_id)


def test_the_modes_and_options_a_codex_like_agent_announces_show_in_the_conversation(
    modes_chat: Chat,
) -> None:
    _room, session = opened(modes_chat, "codex")

    assert [m["id"] for m in session["modes"]] == ["read-only", "auto", "full-access"]
    assert session["mode"] == "read-only"
    assert [(o["id"], o["value"]) for o in session["options"]] == [
        ("model", "gpt-5.2-codex"),
        ("reasoning_effort", "medium"),
    ]
    assert option(session, "reasoning_effort")["category"] == "thought_level"


def test_opencode_options_show_with_its_mode_as_a_select_and_no_modes(modes_chat: Chat) -> None:
    _room, session = opened(modes_chat, "opencode")

    assert session["modes"] == []
    mode = option(session, "mode")
    assert (mode["category"], mode["value"]) == ("mode", "build")
    assert [c["value"] for c in mode["choices"]] == ["build", "plan"]
    assert len(option(session, "model")["choices"]) == 8


def test_set_mode_asks_the_agent_emits_session_changed_and_updates_the_conversation(
    modes_chat: Chat,
) -> None:
    room, _session = opened(modes_chat, "claude")
    mark = modes_chat.log.mark()

    result = modes_chat.sk.api.SessionService.SetMode(room, "claude", "plan")

    assert result.mode == "plan"
    sent = methods(modes_chat, "claude", "session/set_mode")
    assert [m["params"]["modeId"] for m in sent] == ["plan"]
    assert session_changed(modes_chat, room, "claude", mark)["session"]["mode"] == "plan"
    assert modes_chat.channels.Conversation(room)["sessions"]["claude"]["mode"] == "plan"


def test_set_option_keeps_every_option_the_agent_answers_with(modes_chat: Chat) -> None:
    room, _session = opened(modes_chat, "codex")
    mark = modes_chat.log.mark()

    # The smaller model has only "medium": the agent changes the reasoning choices too.
    result = modes_chat.sk.api.SessionService.SetOption(
        room, "codex", "model", "gpt-5.1-codex-mini"
    )

    assert [(o.id, o.value) for o in result.options] == [
        ("model", "gpt-5.1-codex-mini"),
        ("reasoning_effort", "medium"),
    ]
    assert [c.value for c in result.options[1].choices] == ["medium"]
    sent = methods(modes_chat, "codex", "session/set_config_option")
    assert [(m["params"]["configId"], m["params"]["value"]) for m in sent] == [
        ("model", "gpt-5.1-codex-mini")
    ]
    event = session_changed(modes_chat, room, "codex", mark)
    assert option(event["session"], "model")["value"] == "gpt-5.1-codex-mini"
    shown = modes_chat.channels.Conversation(room)["sessions"]["codex"]
    assert option(shown, "model")["value"] == "gpt-5.1-codex-mini"


def test_a_boolean_option_is_set_with_true_or_false(modes_chat: Chat) -> None:
    room, session = opened(modes_chat, "switches")
    assert option(session, "web_search")["kind"] == "boolean"

    result = modes_chat.sk.api.SessionService.SetOption(room, "switches", "web_search", True)

    assert next(o for o in result.options if o.id == "web_search").value is True


def test_set_mode_opens_the_members_session_when_it_is_not_open(modes_chat: Chat) -> None:
    room = modes_chat.channels.Direct("codex")

    result = modes_chat.sk.api.SessionService.SetMode(room.id, "codex", "auto")

    assert result.mode == "auto"
    assert len(methods(modes_chat, "codex", "session/new")) == 1


def test_a_mode_the_agent_switches_to_by_itself_shows(modes_chat: Chat) -> None:
    room, _session = opened(modes_chat, "claude")
    mark = modes_chat.log.mark()

    modes_chat.channels.Send(room, "go acceptEdits")

    assert session_changed(modes_chat, room, "claude", mark)["session"]["mode"] == "acceptEdits"
    modes_chat.idle(room, since=mark)
    assert modes_chat.channels.Conversation(room)["sessions"]["claude"]["mode"] == "acceptEdits"


def test_options_the_agent_pushes_during_a_prompt_show(modes_chat: Chat) -> None:
    room, _session = opened(modes_chat, "opencode")
    mark = modes_chat.log.mark()

    modes_chat.channels.Send(room, "pick mode plan")

    event = session_changed(modes_chat, room, "opencode", mark)
    assert option(event["session"], "mode")["value"] == "plan"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (("mode", "turbo"), "read-only, auto, full-access"),
        (("option", "speed", "fast"), "model, reasoning_effort"),
        (("option", "model", "gpt-9"), "gpt-5.2-codex, gpt-5.1-codex-mini"),
        (("option", "model", True), "gpt-5.2-codex, gpt-5.1-codex-mini"),
    ],
)
def test_an_unknown_mode_option_or_value_is_refused_with_what_the_agent_offers(
    modes_chat: Chat, call: tuple[Any, ...], expected: str
) -> None:
    room, _session = opened(modes_chat, "codex")

    def choose() -> object:
        if call[0] == "mode":
            return modes_chat.sk.api.SessionService.SetMode(room, "codex", call[1])
        return modes_chat.sk.api.SessionService.SetOption(room, "codex", call[1], call[2])

    with pytest.raises(UserError) as refused:
        choose()

    assert expected in str(refused.value)
    asked = [*methods(modes_chat, "codex", "session/set_mode")]
    asked += methods(modes_chat, "codex", "session/set_config_option")
    assert asked == []  # refused before asking the agent


def test_a_text_for_a_boolean_option_is_refused(modes_chat: Chat) -> None:
    room, _session = opened(modes_chat, "switches")

    with pytest.raises(UserError, match="true or false"):
        modes_chat.sk.api.SessionService.SetOption(room, "switches", "web_search", "yes")


def test_setting_the_mode_of_an_agent_that_is_not_a_member_is_refused(modes_chat: Chat) -> None:
    room = modes_chat.channels.Create("crew")
    modes_chat.channels.AddMember(room.id, "codex")

    with pytest.raises(UserError, match="claude is not a member"):
        modes_chat.sk.api.SessionService.SetMode(room.id, "claude", "plan")


def test_an_agent_without_modes_refuses_any_mode(modes_chat: Chat) -> None:
    room, _session = opened(modes_chat, "opencode")

    with pytest.raises(UserError, match="opencode has no mode plan"):
        modes_chat.sk.api.SessionService.SetMode(room, "opencode", "plan")


def test_each_member_of_a_channel_has_its_own_session_settings(modes_chat: Chat) -> None:
    room = modes_chat.channels.Create("crew")
    modes_chat.channels.AddMember(room.id, "codex")
    modes_chat.channels.AddMember(room.id, "claude")

    modes_chat.sk.api.SessionService.SetMode(room.id, "codex", "full-access")
    modes_chat.sk.api.SessionService.SetMode(room.id, "claude", "plan")

    sessions = modes_chat.channels.Conversation(room.id)["sessions"]
    assert {agent: s["mode"] for agent, s in sessions.items()} == {
        "codex": "full-access",
        "claude": "plan",
    }
