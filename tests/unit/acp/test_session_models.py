"""The older session models at the ACP boundary (issue 26): the `models` field of session/new and
session/load answers parsed by app/acp/session_models.py's extensions of the SDK's classes, and
made into the session's model option by translate.session_setup; `session/set_model`'s params."""

from __future__ import annotations

from typing import Any

from acp.utils import serialize_params

from app.acp.session_models import (
    LoadSessionResponseWithModels,
    NewSessionResponseWithModels,
    ResumeSessionResponseWithModels,
    SetSessionModelRequest,
)
from app.acp.translate import session_setup
from app.acp.updates import OptionChoice

MODELS = {
    "availableModels": [
        {"modelId": "auto", "name": "Auto", "description": "Let Gemini CLI decide"},
        {"modelId": "gemini-2.5-pro", "name": "gemini-2.5-pro"},
    ],
    "currentModelId": "auto",
}


def select(option_id: str, category: str) -> dict[str, Any]:
    return {"id": option_id, "name": option_id.title(), "category": category, "type": "select",
            "currentValue": "a", "options": [{"value": "a", "name": "A"}]}  # fmt: skip


def test_the_models_field_is_a_select_of_category_model_set_with_set_model() -> None:
    response = NewSessionResponseWithModels.model_validate({"sessionId": "s", "models": MODELS})

    [model] = session_setup("s", response).options

    assert (model.id, model.kind, model.category, model.via) == (
        "model",
        "select",
        "model",
        "set_model",
    )
    assert model.value == "auto"
    assert model.choices == (
        OptionChoice("auto", "Auto", "Let Gemini CLI decide"),
        OptionChoice("gemini-2.5-pro", "gemini-2.5-pro", ""),
    )


def test_a_load_answer_has_them_too() -> None:
    response = LoadSessionResponseWithModels.model_validate({"models": MODELS})

    assert [o.via for o in session_setup("s", response).options] == ["set_model"]


def test_a_resume_answer_has_them_too() -> None:
    response = ResumeSessionResponseWithModels.model_validate({"models": MODELS})
    assert [o.via for o in session_setup("s", response).options] == ["set_model"]


def test_a_config_option_of_category_model_wins() -> None:
    raw = {"sessionId": "s", "models": MODELS, "configOptions": [select("model_id", "model")]}
    options = session_setup("s", NewSessionResponseWithModels.model_validate(raw)).options

    assert [(o.id, o.via) for o in options] == [("model_id", "config_option")]


def test_the_models_option_takes_another_id_when_model_is_taken() -> None:
    raw = {"sessionId": "s", "models": MODELS, "configOptions": [select("model", "other")]}
    options = session_setup("s", NewSessionResponseWithModels.model_validate(raw)).options

    assert [(o.id, o.via) for o in options] == [("_model", "set_model"), ("model", "config_option")]


def test_models_that_do_not_parse_are_none_and_the_rest_stays() -> None:
    modes = {"currentModeId": "default", "availableModes": [{"id": "default", "name": "Default"}]}
    raw = {"sessionId": "s", "models": {"availableModels": "all"}, "modes": modes}
    response = NewSessionResponseWithModels.model_validate(raw)

    assert response.models is None
    setup = session_setup("s", response)
    assert (setup.options, setup.mode_id) == ((), "default")


def test_set_model_sends_the_session_and_the_model() -> None:
    params = SetSessionModelRequest(session_id="s", model_id="gemini-2.5-pro")

    assert serialize_params(params) == {"sessionId": "s", "modelId": "gemini-2.5-pro"}
