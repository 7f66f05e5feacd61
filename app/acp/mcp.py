"""The configuration's MCP servers as `session/new` takes them (DESIGN: HTTP and SSE servers only
for agents that advertise them; otherwise a line in the agent's log says the server was skipped)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from acp.schema import (
    EnvVariable,
    HttpHeader,
    HttpMcpServer,
    McpCapabilities,
    McpServerStdio,
    SseMcpServer,
)

from app.models.mcp import McpServer


def mcp_servers_for(
    configured: list[McpServer], caps: McpCapabilities | None, note: Callable[[str], None]
) -> list[Any]:
    servers: list[Any] = []
    for server in configured:
        if server.command is not None:
            servers.append(
                McpServerStdio(
                    name=server.name,
                    command=server.command,
                    args=server.args,
                    env=[EnvVariable(name=k, value=v) for k, v in server.env.items()],
                )
            )
            continue
        supported = bool(caps and getattr(caps, server.type, False))
        if not supported:
            note(
                f"[sidekicks] MCP server {server.name!r} skipped: "
                f"the agent does not support {server.type} MCP servers"
            )
            continue
        headers = [HttpHeader(name=k, value=v) for k, v in server.headers.items()]
        model = HttpMcpServer if server.type == "http" else SseMcpServer
        servers.append(
            model(type=server.type, name=server.name, url=server.url or "", headers=headers)
        )
    return servers
