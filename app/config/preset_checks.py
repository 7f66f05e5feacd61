"""Warnings for session presets (`mode:`, `options:`) that an agent's last known offer lacks.

The offer is what the agent's sessions last announced (kept with the channels' history): the
configuration cannot know it, so the store asks through a callable the app installs. An agent
never seen (no offer) gets no warning; a warning never makes the configuration invalid: the
agent may offer more next time, and a preset it lacks is skipped when a session opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.config.model import AgentDef
from app.config.validate import Validation
from app.config.yamldoc import clamp, key_position, parse, value_position
from app.i18n import _
from app.models.problems import Problem
from app.models.sessions import MemberSession as SessionOffer

KnownOffer = Callable[[str], SessionOffer | None]


def with_preset_warnings(text: str | None, validation: Validation, known: KnownOffer) -> Validation:
    """`validation` with a warning for each preset the agent's last known offer lacks."""
    config = validation.config
    if text is None or config is None or not any(a.mode or a.options for a in config.agents):
        return validation
    root = parse(text).root
    nodes = root.get("agents") if isinstance(root, dict) else None
    if not isinstance(nodes, list) or len(nodes) != len(config.agents):
        return validation
    warnings = [
        warning
        for node, agent in zip(nodes, config.agents, strict=True)
        for warning in _agent_warnings(text, node, agent, known)
    ]
    if not warnings:
        return validation
    entries = sorted([*validation.entries, *warnings], key=lambda p: (p.line, p.column))
    return Validation(entries, validation.config, validation.not_a_mapping)


def _agent_warnings(text: str, node: Any, agent: AgentDef, known: KnownOffer) -> list[Problem]:
    name = agent.name
    offer = known(name)
    if offer is None:
        return []
    found: list[Problem] = []
    modes = [m.id for m in offer.modes]
    if agent.mode and agent.mode not in modes:
        message = _("{agent} last offered no mode {mode} (its modes: {modes})").format(
            agent=name, mode=agent.mode, modes=", ".join(modes) or "-"
        )
        found.append(_warning(text, value_position(node, "mode"), message))
    options_node = node.get("options") if isinstance(node, dict) else None
    offered = {o.id: o for o in offer.options}
    for option_id, value in agent.options.items():
        option = offer.option(option_id)  # "model" names the model option whatever its id
        if option is None:
            message = _("{agent} last offered no option {option} (its options: {options})")
            message = message.format(
                agent=name, option=option_id, options=", ".join(offered) or "-"
            )
            found.append(_warning(text, key_position(options_node, option_id), message))
            continue
        choices = [c.value for c in option.choices]
        fits = isinstance(value, bool) if option.kind == "boolean" else value in choices
        if not fits:
            expected = "true, false" if option.kind == "boolean" else ", ".join(choices)
            message = _("{agent} last offered {option}: {choices}").format(
                agent=name, option=option_id, choices=expected
            )
            found.append(_warning(text, value_position(options_node, option_id), message))
    return found


def _warning(text: str, position: tuple[int, int] | None, message: str) -> Problem:
    line, column = clamp(text, *(position or (1, 1)))
    return Problem(line=line, column=column, message=message, warning=True)
