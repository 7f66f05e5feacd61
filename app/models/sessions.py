"""A member's ACP session as the page sees it: the modes and options it offers (issue 14)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel


class ModeInfo(WireModel):
    """A mode the agent offers (ACP `availableModes`): "read-only", "plan", "auto", …"""

    id: str
    name: str
    description: str = ""


class OptionChoiceInfo(WireModel):
    value: str
    name: str
    description: str = ""


class SessionOptionInfo(WireModel):
    """A session configuration option (ACP `configOptions`): a model, a reasoning effort, …
    `category` is the agent's hint ("model", "mode", "thought_level", or empty)."""

    id: str
    name: str
    kind: Literal["select", "boolean"]
    value: str | bool
    description: str = ""
    category: str = ""
    choices: list[OptionChoiceInfo] = Field(default_factory=list)
    # "set_model": the agent's models offered the older way (ACP `models`, set with
    # `session/set_model`); shown like any model option.
    via: Literal["config_option", "set_model"] = "config_option"


MODEL_PRESET = "model"  # what a YAML preset calls the session's model option


class MemberSession(WireModel):
    """What one member's session offers and is set to. Empty lists: the agent offers none (or
    its session has not opened yet)."""

    modes: list[ModeInfo] = Field(default_factory=list)
    mode: str = ""
    options: list[SessionOptionInfo] = Field(default_factory=list)

    def option(self, option_id: str) -> SessionOptionInfo | None:
        """The option `option_id` names. "model" (as YAML presets say it) names the session's
        model option whatever its id, when none has that id (an agent's `model_id`, the older
        `models` field's option, …)."""
        found = next((o for o in self.options if o.id == option_id), None)
        if found is None and option_id == MODEL_PRESET:
            found = next((o for o in self.options if o.category == "model"), None)
        return found
