"""Signing in to an agent with one of the methods it announced (ACP `authenticate`).

For now only `agent` methods, which the agent carries out itself (a browser login it opens);
`env_var` and `terminal` methods are refused with a sentence saying what they would need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.acp.errors import describe_error
from app.core.errors import UserError
from app.i18n import _

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection


async def sign_in(conn: AgentConnection, name: str, method_id: str) -> None:
    method = next((m for m in conn.auth_methods if m.id == method_id), None)
    if method is None:
        known = ", ".join(f"`{m.id}`" for m in conn.auth_methods) or "—"
        raise UserError(
            _("{agent} has no sign-in method {method} (its methods: {known})").format(
                agent=f"`{name}`", method=f"`{method_id}`", known=known
            )
        )
    if method.type != "agent":
        needs = _("a terminal") if method.type == "terminal" else _("environment variables")
        raise UserError(
            _("this sign-in method needs {what}, which Sidekicks does not support yet").format(
                what=needs
            )
        )
    try:
        await conn.authenticate(method_id)
    except Exception as err:
        raise UserError(
            _("signing in to {agent} failed: {error}").format(
                agent=f"`{name}`", error=describe_error(err)
            )
        ) from None
