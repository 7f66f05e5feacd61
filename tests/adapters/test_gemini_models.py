"""gemini-cli 0.61.0 offers its models only the older way (issue 26): the `models` field of its
`session/new` answer and `session/set_model`. A person picks one in the header's model picker
(SessionService.SetOption on the session's "model" option) and the next request to the Gemini
API (tests/adapters/gemini_dialect.py, on 127.0.0.1) is for that model; a YAML preset
`options: {model: …}` does the same for a new session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.adapters.conftest import AdapterDesk, OpenAdapter
from tests.adapters.gemini_dialect import MODEL_PATH, GeminiScript
from tests.adapters.scripted_http import ScriptedServer
from tests.adapters.test_gemini_cli import AGENT, MODEL, open_gemini, settings

PICKED = "gemini-2.5-pro"


def gemini_env(home: Path, server: ScriptedServer) -> dict[str, str]:
    """test_gemini_cli.py's open_gemini environment (which takes no presets)."""
    return {
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_API_KEY": "fake-gemini-key",
        "GOOGLE_GEMINI_BASE_URL": server.url,
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_MODEL": MODEL,
        "NO_COLOR": "1",
    }


def streamed_models(server: ScriptedServer) -> list[str]:
    """The model of each streamGenerateContent request (the turns, not the side questions)."""
    found = []
    for request in server.requests:
        match = MODEL_PATH.match(request.path.split("?", 1)[0])
        if match is not None and match["verb"] == "streamGenerateContent":
            found.append(match["model"])
    return found


def model_option(desk: AdapterDesk, room: str) -> dict[str, Any]:
    session = desk.channels.Conversation(room)["sessions"][AGENT]
    [option] = [o for o in session["options"] if o["category"] == "model"]
    return dict(option)


def test_a_person_picks_a_gemini_model_and_the_next_request_uses_it(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> None:
    with ScriptedServer([GeminiScript(["done"])]) as server:
        desk = open_gemini(adapter_desk, tmp_path / "home", server)
        room = desk.channels.Direct(AGENT).id
        desk.channels.Prepare(room)

        offered = model_option(desk, room)
        assert (offered["id"], offered["kind"], offered["via"]) == ("model", "select", "set_model")
        assert offered["value"] == MODEL  # GEMINI_MODEL
        # gemini-cli 0.61's list with an API key (buildAvailableModels): Auto, then its models.
        assert [c["value"] for c in offered["choices"]] == [
            "auto",
            "gemini-3.1-pro-preview-customtools",
            "gemini-3-flash-preview",
            "gemini-2.5-pro",
            "gemini-3.8-flash",
            "gemini-3.5-flash-lite",
        ]

        picked = desk.sk.api.SessionService.SetOption(room, AGENT, "model", PICKED)

        assert [o.value for o in picked.options if o.category == "model"] == [PICKED]
        assert model_option(desk, room)["value"] == PICKED
        answer = desk.turn(room, "say done")
        assert "done" in desk.text(answer)
        assert streamed_models(server) == [PICKED], [r.path for r in server.requests]


def test_a_yaml_model_preset_is_the_model_of_the_first_request(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    with ScriptedServer([GeminiScript(["done"])]) as server:
        settings(home)
        desk = adapter_desk(
            AGENT,
            "gemini",
            args=["--acp"],
            env=gemini_env(home, server),
            options={"model": PICKED},
        )
        room = desk.channels.Direct(AGENT).id

        answer = desk.turn(room, "say done")

        assert "done" in desk.text(answer)
        assert model_option(desk, room)["value"] == PICKED
        assert streamed_models(server) == [PICKED], [r.path for r in server.requests]
