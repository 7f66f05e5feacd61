"""Sign-in methods as the spec has them since August 2026 (issue 26): `type: "terminal"` with
`args` and `env` run the agent's own command; claude's `_meta["terminal-auth"]` names its own
command (and its args) and wins; names and descriptions are words (no escape codes, no spaces
left over, as claude-agent-acp's "Use Claude subscription ")."""

from __future__ import annotations

from typing import Any

from acp.schema import InitializeResponse

from app.acp.translate import auth_methods
from app.acp.updates import AuthMethod


def methods(*raw: dict[str, Any]) -> tuple[AuthMethod, ...]:
    response = InitializeResponse.model_validate({"protocolVersion": 1, "authMethods": raw})
    return auth_methods(response.auth_methods)


def test_a_terminal_method_runs_the_agents_command_with_its_args_and_env() -> None:
    [method] = methods(
        {"type": "terminal", "id": "login", "name": "Log in", "args": ["--cli", "auth", "login"],
         "env": {"CLAUDE_LOGIN": "1"}}
    )  # fmt: skip

    assert (method.type, method.command) == ("terminal", None)
    assert method.args == ("--cli", "auth", "login")
    assert method.env == (("CLAUDE_LOGIN", "1"),)


def test_claudes_terminal_auth_meta_names_its_own_command_and_args() -> None:
    [method] = methods(
        {"type": "terminal", "id": "claude-ai-login", "name": "Claude Subscription",
         "description": "Use Claude subscription ", "args": ["--cli", "auth", "login"],
         "_meta": {"terminal-auth": {"command": "/usr/bin/node",
                                     "args": ["cli.js", "--cli", "auth", "login"],
                                     "label": "Claude Login"}}}
    )  # fmt: skip

    assert (method.type, method.command) == ("terminal", "/usr/bin/node")
    assert method.args == ("cli.js", "--cli", "auth", "login")
    assert method.description == "Use Claude subscription"


def test_names_and_descriptions_are_said_without_escape_codes() -> None:
    [method] = methods(
        {
            "id": "agent",
            "name": "\x1b[1mSign in\x1b[0m ",
            "description": "\x1b[2mIn a browser\x1b[0m",
        }
    )

    assert (method.name, method.description) == ("Sign in", "In a browser")
