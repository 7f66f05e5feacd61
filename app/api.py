"""The object handed to pywebview as `js_api`: the services and nothing else.

pywebview walks every public attribute recursively and exposes every method it finds, so this
object has exactly the services as public attributes; everything else is private.
"""

from __future__ import annotations

from app.agents.service import AgentService
from app.channels.service import ChannelService
from app.config.service import ConfigService


class Api:
    def __init__(
        self, agents: AgentService, config: ConfigService, channels: ChannelService
    ) -> None:
        self.AgentService = agents
        self.ConfigService = config
        self.ChannelService = channels
