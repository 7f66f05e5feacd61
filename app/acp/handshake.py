"""ACP `initialize`: what Sidekicks offers the agent, and why a start failed, in words.

The agent must answer within the start's timeout and speak protocol v1; otherwise the start fails
with AgentStartError, which carries the reason and the last lines the agent wrote on stderr.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from acp.schema import (
    AuthCapabilities,
    BooleanConfigOptionCapabilities,
    ClientCapabilities,
    ClientSessionCapabilities,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
    ElicitationUrlCapabilities,
    FileSystemCapabilities,
    Implementation,
    InitializeResponse,
    PlanCapabilities,
    SessionConfigOptionsCapabilities,
)

from app.acp.errors import AgentStartError, describe_error, with_stderr
from app.acp.link import EXIT_GRACE, Link, lost_reason, typed_error
from app.acp.process import AgentProcess
from app.i18n import N_
from app.i18n.text import Text, lazy
from app.version import __version__

PROTOCOL_VERSION = 1
ERROR_TAIL_LINES = 20


async def initialize(link: Link, process: AgentProcess, timeout: float) -> InitializeResponse:
    """The agent's answer to `initialize`, or AgentStartError: it refused, exited, lost its
    connection, spoke another protocol version or did not answer within `timeout`."""
    init = asyncio.ensure_future(
        link.conn.initialize(
            protocol_version=PROTOCOL_VERSION,
            client_capabilities=client_capabilities(),
            client_info=Implementation(name="sidekicks", title="Sidekicks", version=__version__),
        )
    )
    exited = asyncio.ensure_future(process.wait_exit())
    receiving = link.receive_task()
    try:
        done, _pending = await asyncio.wait(
            {init, exited, receiving}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        exited.cancel()
    if init in done and init.exception() is None:
        response = cast(InitializeResponse, init.result())
        if response.protocol_version != PROTOCOL_VERSION:
            raise await start_error(
                process,
                lazy(
                    N_("the agent speaks ACP version {version}; Sidekicks speaks version 1"),
                    version=response.protocol_version,
                ),
            )
        return response
    init.cancel()
    reason = await handshake_failure(process, init, done, receiving, timeout)
    raise await start_error(process, reason)


async def start_error(process: AgentProcess, reason: Text) -> AgentStartError:
    await process.stderr_done(timeout=0.5)
    return AgentStartError(with_stderr(reason, process.stderr.tail(ERROR_TAIL_LINES)))


async def handshake_failure(
    process: AgentProcess,
    init: asyncio.Future[Any],
    done: set[asyncio.Future[Any]],
    receiving: asyncio.Future[Any],
    timeout: float,
) -> Text:
    """Why `initialize` did not succeed: the connection was lost, the agent refused, exited or
    did not answer in time."""
    if receiving in done or (init in done and isinstance(init.exception(), ConnectionError)):
        # stdout closed: the process is exiting; its exit code says more than "closed".
        await process.wait_exit(EXIT_GRACE)
    refused = init in done and not isinstance(init.exception(), ConnectionError)
    if receiving.done() and not refused and not process.exited():
        reason = lost_reason(receiving)
    elif init in done and not process.exited():
        reason = lazy(
            N_("the agent refused to start: {error}"),
            error=describe_error(typed_error(init.exception() or Exception())),
        )
    elif process.exited():
        reason = lazy(
            N_("the agent exited during start (exit code {code})"), code=process.returncode
        )
    else:
        reason = lazy(
            N_("the agent did not answer `initialize` within {seconds} s"),
            seconds=f"{timeout:g}",
        )
    return reason


def client_capabilities() -> ClientCapabilities:
    """What Sidekicks offers the agent in `initialize`."""
    return ClientCapabilities(
        fs=FileSystemCapabilities(read_text_file=True, write_text_file=True),  # app/workspace/
        terminal=True,  # app/workspace/terminals.py
        # Terminal sign-in is advertised both ways agents read it today (the SDK's field, and
        # the `terminal-auth` extension of claude and opencode).
        auth=AuthCapabilities(terminal=True),
        # Forms and web addresses the agent asks the person about (app/acp/elicitation.py).
        elicitation=ElicitationCapabilities(
            form=ElicitationFormCapabilities(), url=ElicitationUrlCapabilities()
        ),
        # Boolean config options: a switch in the header (app/channels/session_settings.py).
        session=ClientSessionCapabilities(
            config_options=SessionConfigOptionsCapabilities(
                boolean=BooleanConfigOptionCapabilities()
            )
        ),
        # plan_update / plan_removed: plans by id (app/channels/answer.py). Compaction and
        # sub-agents, which the SDK cannot say, are added on the wire (stream_extensions.py).
        plan=PlanCapabilities(),
        field_meta={"terminal-auth": True},
    )
