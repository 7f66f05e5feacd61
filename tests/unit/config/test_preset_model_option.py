"""A YAML `options: {model: …}` preset names the session's model option whatever the agent calls
it (an agent's `model_id`, the older `models` field's option): no warning that it is not offered,
and a value it does not offer is still said."""

from __future__ import annotations

from app.config.preset_checks import with_preset_warnings
from app.config.validate import validate_text
from app.models.sessions import MemberSession, OptionChoiceInfo, SessionOptionInfo

TEXT = "agents:\n  - name: g\n    command: [g]\n    options: {model: pro}\n"


def offer(value_choices: list[str]) -> MemberSession:
    return MemberSession(
        options=[
            SessionOptionInfo(
                id="model_id",
                name="Model",
                kind="select",
                value=value_choices[0],
                category="model",
                choices=[OptionChoiceInfo(value=v, name=v) for v in value_choices],
            )
        ]
    )


def warnings(known: MemberSession) -> list[str]:
    validation = with_preset_warnings(TEXT, validate_text(TEXT), lambda agent: known)
    return [p.message for p in validation.entries if p.warning and "PATH" not in p.message]


def test_model_names_the_model_option_whatever_its_id() -> None:
    assert warnings(offer(["flash", "pro"])) == []


def test_a_model_it_does_not_offer_is_still_a_warning() -> None:
    assert warnings(offer(["flash", "lite"])) == ["g last offered model: flash, lite"]
