"""An agent whose YAML `env:` already holds a sign-in's variables (codex with OPENAI_API_KEY):
when `session/new` answers "authentication required", `authenticate` with that `env_var` method
and try once more. Codex needs the call even with the key in its environment; Sidekicks does not
make it up front, so a person signed in some other way (ChatGPT) keeps that sign-in."""

from __future__ import annotations

from app.acp.client import SessionHandler
from app.acp.connection import AgentConnection
from app.acp.errors import AgentRequestError
from app.acp.updates import SessionSetup
from app.acp.workspace import Workspace


class EnvAuthConnection(AgentConnection):
    yaml_env: frozenset[str] = frozenset()  # the variables with a value in the YAML `env:`
    _env_auth_tried = False

    def env_method(self) -> str | None:
        """The first `env_var` method whose every variable the YAML `env:` provides."""
        for method in self.auth_methods:
            names = {v.name for v in method.vars}
            if method.type == "env_var" and names and names <= self.yaml_env:
                return method.id
        return None

    async def new_session(
        self, handler: SessionHandler, workspace: Workspace | None = None
    ) -> SessionSetup:
        try:
            return await super().new_session(handler, workspace)
        except AgentRequestError as err:
            method = self.env_method()
            if not err.auth_required or method is None or self._env_auth_tried:
                raise
            self._env_auth_tried = True  # once per process: a refused key stays refused
            try:
                await self.authenticate(method)
            except Exception:
                raise err from None
            return await super().new_session(handler, workspace)
