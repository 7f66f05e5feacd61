"""The Preferences form's model (issue 27): the settings a person changes without the YAML."""

from __future__ import annotations

from typing import Literal

from app.models.wire import WireModel


class Preferences(WireModel):
    theme: Literal["system", "light", "dark"]
    language: Literal["system", "en", "fr"]
    notifications: bool
    max_running_agents: int
    # As the YAML has it: "15m", "90s", "2h", "0" = never; a number in the YAML is seconds ("900").
    stop_idle_agents_after: str
