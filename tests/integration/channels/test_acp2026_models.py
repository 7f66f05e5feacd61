"""Models offered the older way (issue 26): the `models` field of session/new|load and
`session/set_model` (gemini-cli 0.61), in the same model option as config options; a config
option of category "model" wins; YAML presets name either as `model`. The fake:
tests/fakes/acp2026_models.py."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import UserError
from tests.integration.channels.conftest import Chat
from tests.integration.channels.session_modes import methods, session_changed

FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "acp2026_models.py")


def entry(log_dir: Path, name: str, flavour: str, **extra: object) -> str:
    command = [sys.executable, FAKE, flavour]
    lines = [f"  - name: {name}", f"    command: {json.dumps(command)}"]
    lines.append(f"    env: {{FAKE_LOG: {json.dumps(str(log_dir / (name + '.jsonl')))}}}")
    lines += [f"    {key}: {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture
def chat(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    logs = tmp_path / "agent-logs"
    return open_chat(
        entry(logs, "gemini", "gemini")
        + entry(logs, "both", "both")
        + entry(logs, "broken", "broken")
        + entry(logs, "flash", "gemini", options={"model": "gemini-2.5-flash"})
        + entry(logs, "small", "both", options={"model": "small-model", "web_search": True})
    )


def opened(chat: Chat, agent: str) -> tuple[str, dict[str, Any]]:
    room = chat.channels.Direct(agent)
    chat.channels.Prepare(room.id)
    return room.id, chat.channels.Conversation(room.id)["sessions"][agent]


def answered(chat: Chat, room: str, agent: str, text: str) -> str:
    mark = chat.log.mark()
    chat.channels.Send(room, text)
    answer = chat.finished(room, agent, since=mark)
    chat.idle(room, since=mark)
    return str(answer["parts"][0]["text"])


def test_models_offered_the_older_way_are_the_sessions_model_option(chat: Chat) -> None:
    _room, session = opened(chat, "gemini")

    [model] = session["options"]
    assert (model["id"], model["category"], model["kind"]) == ("model", "model", "select")
    assert model["value"] == "auto-gemini-2.5"
    assert model["via"] == "set_model"
    assert [c["value"] for c in model["choices"]] == [
        "auto-gemini-2.5",
        "gemini-2.5-pro",
        "gemini-2.5-flash",
        "gemini-2.5-flash-lite",
    ]
    assert model["choices"][0]["name"] == "Auto (Gemini 2.5)"
    assert model["choices"][0]["description"].startswith("Let Gemini CLI decide")
    assert [m["id"] for m in session["modes"]] == ["default", "autoEdit", "yolo"]


def test_picking_one_sends_session_set_model_and_the_next_prompt_uses_it(chat: Chat) -> None:
    room, _session = opened(chat, "gemini")
    mark = chat.log.mark()

    result = chat.sk.api.SessionService.SetOption(room, "gemini", "model", "gemini-2.5-flash")

    assert [o.value for o in result.options] == ["gemini-2.5-flash"]
    sent = methods(chat, "gemini", "session/set_model")
    assert [m["params"] for m in sent] == [
        {"sessionId": sent[0]["params"]["sessionId"], "modelId": "gemini-2.5-flash"}
    ]
    assert methods(chat, "gemini", "session/set_config_option") == []
    shown = session_changed(chat, room, "gemini", mark)["session"]["options"][0]
    assert shown["value"] == "gemini-2.5-flash"
    assert "model=gemini-2.5-flash" in answered(chat, room, "gemini", "hello")


def test_a_model_the_agent_refuses_is_said_and_nothing_changes(chat: Chat) -> None:
    room, _session = opened(chat, "gemini")

    with pytest.raises(UserError, match=r"not a choice of model; its choices: auto-gemini-2\.5"):
        chat.sk.api.SessionService.SetOption(room, "gemini", "model", "gpt-9")

    assert methods(chat, "gemini", "session/set_model") == []
    shown = chat.channels.Conversation(room)["sessions"]["gemini"]["options"][0]
    assert shown["value"] == "auto-gemini-2.5"


def test_a_config_option_of_category_model_wins_over_the_models_field(chat: Chat) -> None:
    room, session = opened(chat, "both")

    assert [(o["id"], o["kind"], o["via"]) for o in session["options"]] == [
        ("model_id", "select", "config_option"),
        ("web_search", "boolean", "config_option"),
    ]
    chat.sk.api.SessionService.SetOption(room, "both", "model_id", "small-model")
    assert [m["params"]["configId"] for m in methods(chat, "both", "session/set_config_option")]
    assert methods(chat, "both", "session/set_model") == []


def test_a_boolean_option_is_set_with_a_boolean(chat: Chat) -> None:
    room, _session = opened(chat, "both")

    result = chat.sk.api.SessionService.SetOption(room, "both", "web_search", True)

    assert {o.id: o.value for o in result.options}["web_search"] is True
    [sent] = methods(chat, "both", "session/set_config_option")
    assert (sent["params"]["type"], sent["params"]["value"]) == ("boolean", True)
    assert "web_search=True" in answered(chat, room, "both", "status")


def test_models_that_do_not_parse_leave_the_session_open_without_them(chat: Chat) -> None:
    _room, session = opened(chat, "broken")

    assert session["options"] == []
    assert [m["id"] for m in session["modes"]] == ["default", "autoEdit", "yolo"]


def test_a_yaml_model_preset_works_with_the_older_models(chat: Chat) -> None:
    room, session = opened(chat, "flash")

    assert [m["params"]["modelId"] for m in methods(chat, "flash", "session/set_model")] == [
        "gemini-2.5-flash"
    ]
    assert session["options"][0]["value"] == "gemini-2.5-flash"
    assert "model=gemini-2.5-flash" in answered(chat, room, "flash", "hello")


def test_a_yaml_model_preset_names_a_config_model_option_of_another_id(chat: Chat) -> None:
    room, session = opened(chat, "small")

    sent = methods(chat, "small", "session/set_config_option")
    assert [(m["params"]["configId"], m["params"]["value"]) for m in sent] == [
        ("model_id", "small-model"),
        ("web_search", True),
    ]
    assert {o["id"]: o["value"] for o in session["options"]} == {
        "model_id": "small-model",
        "web_search": True,
    }
    assert "model_id=small-model web_search=True" in answered(chat, room, "small", "status")


def test_boolean_config_options_are_advertised_in_initialize(chat: Chat) -> None:
    opened(chat, "both")

    [initialize] = methods(chat, "both", "initialize")
    session = initialize["params"]["clientCapabilities"]["session"]
    assert session["configOptions"] == {"boolean": {}}
