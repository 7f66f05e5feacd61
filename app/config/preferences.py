"""The Preferences form's settings, read from the file and written back into it (comments kept).

Written as a Save is: the edited text is validated, written only if valid, and reloaded, so the
YAML editor and every listener see it as they see any save. Only the settings that changed are
written: a file without `notifications:` does not grow one because the form was saved.
"""

from __future__ import annotations

from typing import Any

from app.config.durations import parse_duration
from app.config.model import Config
from app.config.yaml_edit import with_values
from app.config.yamldoc import parse
from app.models.preferences import Preferences

# The YAML keys of the form's fields (dotted: in their section).
KEYS = {
    "theme": "theme",
    "language": "language",
    "notifications": "notifications",
    "max_running_agents": "limits.maxRunningAgents",
    "stop_idle_agents_after": "limits.stopIdleAgentsAfter",
}


def format_duration(seconds: int) -> str:
    """900 → "15m", 5400 → "1h30m", 90 → "90s" under two minutes, 0 → "0"."""
    if seconds == 0:
        return "0"
    if seconds < 120 or seconds % 60:
        return f"{seconds}s"
    hours, minutes = divmod(seconds // 60, 60)
    return (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "")


def _written_duration(text: str) -> str | None:
    """`limits.stopIdleAgentsAfter` as the file spells it, when it is a valid duration."""
    data = parse(text).data
    limits = data.get("limits") if isinstance(data, dict) else None
    value = limits.get("stopIdleAgentsAfter") if isinstance(limits, dict) else None
    if value is None or isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        parse_duration(value)
    except ValueError:
        return None
    return str(value)


def preferences_of(config: Config, text: str) -> Preferences:
    """The form's values: the configuration in force, the idle stop as the file writes it."""
    limits = config.limits
    written = _written_duration(text)
    same = written is not None and parse_duration(written) == limits.stop_idle_agents_after
    return Preferences(
        theme=config.theme,
        language=config.language,
        notifications=config.notifications,
        max_running_agents=limits.max_running_agents,
        stop_idle_agents_after=written
        if same and written is not None
        else format_duration(limits.stop_idle_agents_after),
    )


def _yaml_value(field: str, value: Any) -> object:
    if field == "stop_idle_agents_after" and isinstance(value, str):
        value = value.strip()
        if value.isdigit():
            return int(value)  # seconds, as a number (`0`, not the text '0')
    return value


def text_with(text: str, current: Preferences, wanted: Preferences) -> str:
    """`text` with the settings that differ between `current` and `wanted` written in."""
    values = {
        KEYS[field]: _yaml_value(field, getattr(wanted, field))
        for field in KEYS
        if getattr(wanted, field) != getattr(current, field)
    }
    return with_values(text, values) if values else text
