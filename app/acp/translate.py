"""SDK objects → the core's typed contract (app/acp/updates.py), in one place.

Dispatches with `isinstance` on the SDK's own classes (as the SDK's `contrib/session_state.py`
does), so an SDK rename fails here, loudly and under mypy, instead of silently in the core.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, cast, get_args

from acp.schema import (
    AgentMessageChunk,
    AgentPlanContentUpdate,
    AgentPlanRemovedUpdate,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AuthMethodAgent,
    AvailableCommand,
    AvailableCommandsUpdate,
    ConfigOptionUpdate,
    ContentToolCallContent,
    CurrentModeUpdate,
    EmbeddedResourceContentBlock,
    EnvVarAuthMethod,
    FileEditToolCallContent,
    ForkSessionResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PermissionOption,
    PlanEntry,
    PlanUpdateItems,
    PlanUpdateMarkdown,
    ResourceContentBlock,
    ResumeSessionResponse,
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectGroup,
    SessionConfigSelectOption,
    SessionInfoUpdate,
    SessionModeState,
    TerminalAuthMethod,
    TerminalToolCallContent,
    TextContentBlock,
    TextResourceContents,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UsageUpdate,
    UserMessageChunk,
)

from app.acp.ansi import strip_ansi
from app.acp.session_models import MODELS_OPTION_ID, SessionModelState, response_models
from app.acp.session_titles import title_text
from app.acp.stream_extensions import carried, rate_limits, stream_event, tool_sessions
from app.acp.updates import (
    AgentCommand,
    AuthMethod,
    AuthType,
    AuthVar,
    CommandsChanged,
    ModeChanged,
    OptionChoice,
    OptionsChanged,
    PermissionChoice,
    PlanChanged,
    PlanContentChanged,
    PlanItem,
    PlanRemoved,
    SessionCost,
    SessionEvent,
    SessionMode,
    SessionOption,
    SessionSetup,
    SessionTitled,
    TextDelta,
    ToolChange,
    ToolDiff,
    ToolLocation,
    Unhandled,
    UsageChanged,
    UserText,
)
from app.core.text import valid_text
from app.i18n import _
from app.models.conversation import ToolKind

MAX_TOOL_TEXT = 100_000  # characters of a tool's input or output kept (history stays small)
TOOL_KINDS: frozenset[str] = frozenset(get_args(ToolKind))


def session_event(update: object) -> SessionEvent:
    """One `session/update` as the core's event. Every string but a chunk's text is made valid
    here (app/core/text.py); a chunk may end with half a character that the next one completes,
    which app/channels/answer.py joins."""
    if isinstance(update, SessionInfoUpdate) and (raw := carried(update.field_meta)) is not None:
        return stream_event(raw)  # a variant the SDK does not know (stream_extensions.py)
    if isinstance(update, AgentMessageChunk):
        return TextDelta("text", content_text(update.content), update.message_id)
    if isinstance(update, AgentThoughtChunk):
        return TextDelta("thought", content_text(update.content), update.message_id)
    if isinstance(update, ToolCallStart | ToolCallProgress):
        return tool_change(update, started=isinstance(update, ToolCallStart))
    if isinstance(update, AgentPlanUpdate):
        return PlanChanged(_plan_items(update.entries))
    if isinstance(update, AgentPlanContentUpdate):
        return plan_content(update)
    if isinstance(update, AgentPlanRemovedUpdate):
        return PlanRemoved(str(update.plan_id))
    if isinstance(update, AvailableCommandsUpdate):
        return CommandsChanged(tuple(_command(c) for c in update.available_commands or []))
    if isinstance(update, UsageUpdate):
        return usage_changed(update)
    if isinstance(update, CurrentModeUpdate):
        return ModeChanged(str(update.current_mode_id))
    if isinstance(update, ConfigOptionUpdate):
        return OptionsChanged(session_options(update.config_options))
    if isinstance(update, SessionInfoUpdate):
        fields = update.model_fields_set
        return SessionTitled(title_text(update.title) if "title" in fields else None)
    if isinstance(update, UserMessageChunk):
        return UserText(content_text(update.content))
    return Unhandled(str(getattr(update, "session_update", type(update).__name__)))


def plan_content(update: AgentPlanContentUpdate) -> PlanContentChanged:
    """`plan_update`: a plan by id, as entries, Markdown, or a file's URI."""
    plan = update.plan
    if isinstance(plan, PlanUpdateItems):
        return PlanContentChanged(str(plan.plan_id), entries=_plan_items(plan.entries))
    if isinstance(plan, PlanUpdateMarkdown):
        return PlanContentChanged(str(plan.plan_id), markdown=valid_text(plan.content))
    return PlanContentChanged(str(plan.plan_id), uri=valid_text(str(plan.uri)))


def _plan_items(entries: list[PlanEntry] | None) -> tuple[PlanItem, ...]:
    return tuple(PlanItem(valid_text(e.content), e.status, e.priority) for e in entries or [])


def usage_changed(update: UsageUpdate) -> UsageChanged:
    cost = update.cost
    return UsageChanged(
        used=int(update.used or 0),
        size=int(update.size or 0),
        cost=SessionCost(float(cost.amount), valid_text(cost.currency)) if cost else None,
        rate_limits=rate_limits(update.field_meta),
    )


def content_text(block: object) -> str:
    """The text of an ACP content block; a short marker for what is not text."""
    if isinstance(block, TextContentBlock):
        return block.text
    if isinstance(block, ResourceContentBlock):
        return f"[{block.name or block.uri}]"
    if isinstance(block, EmbeddedResourceContentBlock):
        resource = block.resource
        if isinstance(resource, TextResourceContents) and resource.text:
            return resource.text
        return f"[{resource.uri or 'resource'}]"
    kind = getattr(block, "type", "")
    return f"[{kind or 'content'}]"


def tool_change(
    update: ToolCallStart | ToolCallProgress | ToolCallUpdate, *, started: bool
) -> ToolChange:
    texts: list[str] | None = None
    diffs: list[ToolDiff] | None = None
    terminals: list[str] | None = None
    if update.content is not None:
        texts, diffs, terminals = [], [], []
        for item in update.content:
            if isinstance(item, FileEditToolCallContent):
                diffs.append(
                    ToolDiff(valid_text(item.path), _cut_opt(item.old_text), _cut(item.new_text))
                )
            elif isinstance(item, ContentToolCallContent):
                texts.append(_cut(content_text(item.content)))
            elif isinstance(item, TerminalToolCallContent):
                terminals.append(item.terminal_id)
                texts.append(f"[terminal {item.terminal_id}]")
    return ToolChange(
        tool_call_id=str(update.tool_call_id),
        started=started,
        title=valid_text(update.title) if update.title else None,
        kind=_tool_kind(update.kind),
        status=update.status,
        input=compact_json(update.raw_input) if update.raw_input is not None else None,
        locations=_locations(update.locations),
        texts=tuple(texts) if texts is not None else None,
        diffs=tuple(diffs) if diffs is not None else None,
        terminals=tuple(terminals) if terminals is not None else None,
        output=_output(update.raw_output),
        sessions=tool_sessions(update.field_meta),
    )


def permission_choices(options: list[PermissionOption]) -> tuple[PermissionChoice, ...]:
    return tuple(PermissionChoice(o.option_id, valid_text(o.name), o.kind) for o in options)


def session_options(options: list[Any] | None) -> tuple[SessionOption, ...]:
    found: list[SessionOption] = []
    for option in options or []:
        root = getattr(option, "root", option)  # a RootModel union in some SDK versions
        if isinstance(root, SessionConfigOptionSelect):
            found.append(_option(root, "select", root.current_value, _choices(root.options)))
        elif isinstance(root, SessionConfigOptionBoolean):
            found.append(_option(root, "boolean", root.current_value))
    return tuple(found)


def _option(
    option: SessionConfigOptionSelect | SessionConfigOptionBoolean,
    kind: Literal["select", "boolean"],
    value: str | bool,
    choices: tuple[OptionChoice, ...] = (),
) -> SessionOption:
    return SessionOption(
        id=option.id,
        name=valid_text(option.name),
        kind=kind,
        value=value,
        description=valid_text(option.description or ""),
        category=str(option.category or ""),
        choices=choices,
    )


def _choices(
    items: list[SessionConfigSelectOption] | list[SessionConfigSelectGroup],
) -> tuple[OptionChoice, ...]:
    """A select's choices, groups flattened in order."""
    flat: list[SessionConfigSelectOption] = []
    for item in items:
        flat.extend(item.options if isinstance(item, SessionConfigSelectGroup) else [item])
    return tuple(
        OptionChoice(c.value, valid_text(c.name), valid_text(c.description or "")) for c in flat
    )


def compact_json(value: object) -> str:
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return _cut(text)


def _command(command: AvailableCommand) -> AgentCommand:
    hint = command.input.root.hint if command.input is not None else ""
    return AgentCommand(
        valid_text(command.name), valid_text(command.description or ""), valid_text(hint or "")
    )


def _tool_kind(kind: str | None) -> ToolKind | None:
    if not kind:
        return None
    return cast(ToolKind, kind) if kind in TOOL_KINDS else "other"


def _locations(locations: list[ToolCallLocation] | None) -> tuple[ToolLocation, ...] | None:
    if locations is None:
        return None
    return tuple(ToolLocation(valid_text(str(loc.path)), loc.line) for loc in locations)


def _output(raw_output: object) -> str | None:
    if raw_output is None:
        return None
    return _cut(raw_output) if isinstance(raw_output, str) else compact_json(raw_output)


def _cut(text: str) -> str:
    text = valid_text(text)
    return text if len(text) <= MAX_TOOL_TEXT else text[:MAX_TOOL_TEXT] + "\n…"


def _cut_opt(text: str | None) -> str | None:
    return None if text is None else _cut(text)


_URL = re.compile(r"https?://[^\s)>\]`'\"]+")


def auth_methods(methods: list[Any] | None) -> tuple[AuthMethod, ...]:
    """The agent's sign-in methods (`initialize` → `authMethods`), typed."""
    return tuple(_auth_method(method) for method in methods or [])


def _auth_method(method: AuthMethodAgent | EnvVarAuthMethod | TerminalAuthMethod) -> AuthMethod:
    description = strip_ansi(method.description or "").strip()  # words, as the person reads
    kind: AuthType = "agent"
    variables: tuple[AuthVar, ...] = ()
    link = None
    command: str | None = None
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    if isinstance(method, EnvVarAuthMethod):
        kind, link = "env_var", method.link
        variables = tuple(
            AuthVar(v.name, v.secret is not False, v.label or None) for v in method.vars
        )
    meta = method.field_meta or {}
    if isinstance(method, TerminalAuthMethod):
        kind = "terminal"
        args = tuple(str(a) for a in method.args or [])
        env = tuple((str(k), str(v)) for k, v in (method.env or {}).items())
    terminal_auth = meta.get("terminal-auth")
    if isinstance(terminal_auth, dict) and isinstance(terminal_auth.get("command"), str):
        # claude and opencode name their login command in `_meta` (opencode by `_meta` alone).
        kind, command = "terminal", str(terminal_auth["command"])
        meta_args = terminal_auth.get("args")
        args = tuple(str(a) for a in meta_args) if isinstance(meta_args, list) else ()
        meta_env = terminal_auth.get("env")
        if isinstance(meta_env, dict):
            env = tuple((str(k), str(v)) for k, v in meta_env.items())
    api_key = meta.get("api-key")
    if kind == "agent" and isinstance(api_key, dict) and api_key.get("provider") == "google":
        # gemini-cli's "Gemini API key" method reads GEMINI_API_KEY from its environment.
        kind, variables = "env_var", (AuthVar("GEMINI_API_KEY", True, "Gemini API key"),)
        link = "https://aistudio.google.com/apikey"
    meta_link = meta.get("link") or meta.get("url")
    if link is None and isinstance(meta_link, str):
        link = meta_link
    if link is None:
        found = _URL.search(description)
        link = found.group(0).rstrip(".,;:") if found else None
    return AuthMethod(
        method.id,
        valid_text(strip_ansi(method.name).strip()),
        valid_text(description),
        kind,
        variables,
        link,
        command,
        args,
        env,
    )


def session_setup(
    session_id: str,
    response: (
        NewSessionResponse
        | LoadSessionResponse
        | ResumeSessionResponse
        | ForkSessionResponse
        | None
    ),
) -> SessionSetup:
    """The modes and options a `session/new`, `session/load` (`resume`, `fork`) answer
    announced."""
    if response is None:
        return SessionSetup(session_id)
    modes: SessionModeState | None = response.modes
    return SessionSetup(
        session_id,
        modes=tuple(
            SessionMode(str(m.id), valid_text(m.name), valid_text(m.description or ""))
            for m in (modes.available_modes if modes else [])
        ),
        mode_id=str(modes.current_mode_id) if modes else None,
        options=with_models(session_options(response.config_options), response_models(response)),
    )


def with_models(
    options: tuple[SessionOption, ...], models: SessionModelState | None
) -> tuple[SessionOption, ...]:
    """The options, and the models the agent offers the older way (`models`) as a select of
    category "model" set through `session/set_model` — unless a config option of category
    "model" already offers them (it wins)."""
    if models is None or any(o.category == "model" for o in options):
        return options
    taken = {o.id for o in options}
    option_id = MODELS_OPTION_ID if MODELS_OPTION_ID not in taken else "_" + MODELS_OPTION_ID
    choices = tuple(
        OptionChoice(m.model_id, valid_text(m.name), valid_text(m.description or ""))
        for m in models.available_models
    )
    model = SessionOption(
        id=option_id,
        name=_("Model"),
        kind="select",
        value=models.current_model_id,
        category="model",
        choices=choices,
        via="set_model",
    )
    return (model, *options)
