"""Checking a mode or option against what a member's session offers (issue 14), before the
agent is asked: the refusal lists what it offers."""

from __future__ import annotations

from app.acp.updates import OptionChoice, SessionMode, SessionOption, SessionSetup
from app.channels.session_settings import mode_problem, offer_of, option_problem

SETUP = SessionSetup(
    session_id="s-1",
    modes=(SessionMode("ask", "Ask", "never edits"), SessionMode("code", "Code")),
    mode_id="code",
    options=(
        SessionOption(
            "model",
            "Model",
            "select",
            "swift",
            category="model",
            choices=(OptionChoice("swift", "Swift"), OptionChoice("sage", "Sage")),
        ),
        SessionOption("thoughts", "Show thoughts", "boolean", True),
    ),
)
OFFER = offer_of(SETUP)


def test_a_setup_becomes_the_offer_the_page_shows() -> None:
    assert OFFER.wire() == {
        "modes": [
            {"id": "ask", "name": "Ask", "description": "never edits"},
            {"id": "code", "name": "Code", "description": ""},
        ],
        "mode": "code",
        "options": [
            {
                "id": "model",
                "name": "Model",
                "kind": "select",
                "value": "swift",
                "description": "",
                "category": "model",
                "choices": [
                    {"value": "swift", "name": "Swift", "description": ""},
                    {"value": "sage", "name": "Sage", "description": ""},
                ],
                "via": "config_option",  # not the older session/set_model
            },
            {
                "id": "thoughts",
                "name": "Show thoughts",
                "kind": "boolean",
                "value": True,
                "description": "",
                "category": "",
                "choices": [],
                "via": "config_option",
            },
        ],
    }


def test_a_setup_without_a_current_mode_has_an_empty_mode() -> None:
    assert offer_of(SessionSetup(session_id="s-2")).mode == ""


def test_an_offered_mode_and_values_have_no_problem() -> None:
    assert mode_problem("demo", OFFER, "ask") == ""
    assert option_problem("demo", OFFER, "model", "sage") == ""
    assert option_problem("demo", OFFER, "thoughts", False) == ""


def test_an_unknown_mode_is_refused_with_the_modes_offered() -> None:
    assert mode_problem("demo", OFFER, "plan") == "demo has no mode plan; its modes: ask, code"


def test_an_agent_offering_no_modes_says_so() -> None:
    empty = offer_of(SessionSetup(session_id="s-3"))
    assert mode_problem("demo", empty, "plan") == "demo has no mode plan; its modes: nothing"


def test_an_unknown_option_is_refused_with_the_options_offered() -> None:
    assert option_problem("demo", OFFER, "speed", "x") == (
        "demo has no option speed; its options: model, thoughts"
    )


def test_a_value_not_among_the_choices_is_refused_with_the_choices() -> None:
    assert option_problem("demo", OFFER, "model", "opus") == (
        "'opus' is not a choice of model; its choices: swift, sage"
    )


def test_a_boolean_for_a_select_and_a_text_for_a_boolean_are_refused() -> None:
    assert "its choices: swift, sage" in option_problem("demo", OFFER, "model", True)
    assert option_problem("demo", OFFER, "thoughts", "true") == (
        "thoughts is true or false, not 'true'"
    )
