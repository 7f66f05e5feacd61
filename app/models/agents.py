"""What the UI sees of an agent (SPEC §1, §3 AgentService.List)."""

from __future__ import annotations

from typing import Literal

from app.models.wire import WireModel

AgentState = Literal["stopped", "starting", "ready", "busy", "error"]


class AgentInfo(WireModel):
    name: str
    title: str
    icon: str = ""
    description: str = ""
    state: AgentState = "stopped"
    error: str = ""
    outdated: bool = False
