"""The demo agent's session modes and options (ACP `modes`, `configOptions`), so the app's
pickers can be shown and tried with no real agent: two modes, a model to choose among three and
one on/off option. They change nothing but what `/status` says: the demo calls no model."""

from __future__ import annotations

from acp import RequestError
from acp.schema import (
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
)

from app.agents.builtin.demo_store import INVALID_PARAMS, SessionRecord

MODES = (
    SessionMode(id="ask", name="Ask", description="Answers questions; never edits a file"),
    SessionMode(id="code", name="Code", description="Reads, edits and runs things, asking first"),
)
DEFAULT_MODE = "code"  # what the full demo shows: an edit asked for, then made
MODELS = (
    SessionConfigSelectOption(value="demo-swift", name="Demo Swift", description="Quickest"),
    SessionConfigSelectOption(value="demo-sage", name="Demo Sage", description="Most thorough"),
    SessionConfigSelectOption(value="demo-tiny", name="Demo Tiny", description="Smallest"),
)
DEFAULT_MODEL = "demo-swift"
MODEL_OPTION = "model"
THOUGHTS_OPTION = "show_thoughts"

ConfigOption = SessionConfigOptionSelect | SessionConfigOptionBoolean


def modes(session: SessionRecord) -> SessionModeState:
    return SessionModeState(current_mode_id=session.mode, available_modes=list(MODES))


def config_options(session: SessionRecord) -> list[ConfigOption]:
    return [
        SessionConfigOptionSelect(
            id=MODEL_OPTION,
            name="Model",
            description="Which (pretend) model answers",
            category="model",
            type="select",
            current_value=session.model,
            options=list(MODELS),
        ),
        SessionConfigOptionBoolean(
            id=THOUGHTS_OPTION,
            name="Show thoughts",
            description="Whether /status says thoughts are shown",
            type="boolean",
            current_value=session.show_thoughts,
        ),
    ]


def set_mode(session: SessionRecord, mode_id: str) -> None:
    if mode_id not in [m.id for m in MODES]:
        known = ", ".join(m.id for m in MODES)
        raise RequestError(
            INVALID_PARAMS, f"The demo agent has no mode {mode_id!r} (it has {known})"
        )
    session.mode = mode_id


def set_option(session: SessionRecord, option_id: str, value: str | bool) -> None:
    if option_id == MODEL_OPTION:
        known = [m.value for m in MODELS]
        if not isinstance(value, str) or value not in known:
            raise RequestError(
                INVALID_PARAMS, f"{value!r} is not a demo model (they are {', '.join(known)})"
            )
        session.model = value
    elif option_id == THOUGHTS_OPTION:
        if not isinstance(value, bool):
            raise RequestError(INVALID_PARAMS, f"{THOUGHTS_OPTION} is true or false")
        session.show_thoughts = value
    else:
        raise RequestError(
            INVALID_PARAMS,
            f"The demo agent has no option {option_id!r} "
            f"(it has {MODEL_OPTION}, {THOUGHTS_OPTION})",
        )


def status_text(session: SessionRecord) -> str:
    mode = next((m for m in MODES if m.id == session.mode), MODES[1])
    model = next((m for m in MODELS if m.value == session.model), MODELS[0])
    thoughts = "shown" if session.show_thoughts else "hidden"
    return (
        f"Mode: **{mode.name}** (`{mode.id}`) · Model: **{model.name}** (`{model.value}`)"
        f" · Thoughts: {thoughts}\n"
    )
