"""Each member's session modes and options (issue 14): what the agent offers and is set to,
kept with the member's record in history, and what the person chose there.

The offer comes from `session/new` or `session/load`, then follows the agent's
`current_mode_update` and `config_option_update`. The person's choices (SetMode, SetOption) are
kept too, so a NEW session (the agent cannot resume, or resuming failed) gets them again; a
resumed session keeps the agent's own restored state. Presets from the YAML (`mode:`,
`options:`) fill in, for a new session, what the person has not chosen in that channel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from app.acp.errors import describe_error
from app.acp.updates import SessionOption, SessionSetup
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState, LiveSession
from app.core.errors import UserError
from app.i18n import _
from app.models.sessions import MemberSession as SessionOffer
from app.models.sessions import ModeInfo, OptionChoiceInfo, SessionOptionInfo

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Preset:
    """An agent's `mode:` and `options:` from the YAML ("" and {} when it has none)."""

    mode: str = ""
    options: dict[str, str | bool] = field(default_factory=dict)


def option_info(option: SessionOption) -> SessionOptionInfo:
    return SessionOptionInfo(
        id=option.id,
        name=option.name,
        kind=option.kind,
        value=option.value,
        description=option.description,
        category=option.category,
        choices=[
            OptionChoiceInfo(value=c.value, name=c.name, description=c.description)
            for c in option.choices
        ],
        via=option.via,
    )


def offer_of(setup: SessionSetup) -> SessionOffer:
    return SessionOffer(
        modes=[ModeInfo(id=m.id, name=m.name, description=m.description) for m in setup.modes],
        mode=setup.mode_id or "",
        options=[option_info(o) for o in setup.options],
    )


def _listed(items: list[str]) -> str:
    return ", ".join(items) if items else _("nothing")


def mode_problem(agent: str, offer: SessionOffer, mode_id: str) -> str:
    """Why `mode_id` cannot be chosen ("" if it can)."""
    if any(m.id == mode_id for m in offer.modes):
        return ""
    return _("{agent} has no mode {mode}; its modes: {modes}").format(
        agent=agent, mode=mode_id, modes=_listed([m.id for m in offer.modes])
    )


def offered_option(offer: SessionOffer, option_id: str) -> SessionOptionInfo | None:
    """The option `option_id` names (SessionOffer.option: "model" names the model option)."""
    return offer.option(option_id)


def option_problem(agent: str, offer: SessionOffer, option_id: str, value: str | bool) -> str:
    """Why `option_id` cannot take `value` ("" if it can)."""
    option = offered_option(offer, option_id)
    if option is None:
        return _("{agent} has no option {option}; its options: {options}").format(
            agent=agent, option=option_id, options=_listed([o.id for o in offer.options])
        )
    if option.kind == "boolean":
        if isinstance(value, bool):
            return ""
        return _("{option} is true or false, not {value}").format(
            option=option_id, value=repr(value)
        )
    choices = [c.value for c in option.choices]
    if isinstance(value, str) and value in choices:
        return ""
    return _("{value} is not a choice of {option}; its choices: {choices}").format(
        value=repr(value), option=option_id, choices=_listed(choices)
    )


class SessionSettings:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        presets: Callable[[str], Preset],
    ) -> None:
        self._registry = registry
        self._publisher = publisher
        self._presets = presets

    # ---- what the agent says -----------------------------------------------------------------

    def announced(self, state: ChannelState, agent: str, setup: SessionSetup) -> None:
        """A session opened (new or resumed) with these modes and options."""
        self._changed(state, agent, offer_of(setup))

    def mode_changed(self, channel_id: str, agent: str, mode_id: str) -> None:
        state = self._registry.find(channel_id)
        if state is None:
            return
        offer = self.offer(state, agent)
        self._changed(state, agent, offer.model_copy(update={"mode": mode_id}))

    def options_changed(
        self, channel_id: str, agent: str, options: tuple[SessionOption, ...]
    ) -> None:
        state = self._registry.find(channel_id)
        if state is None:
            return
        offer = self.offer(state, agent)
        self._changed(state, agent, self._with_options(offer, options))

    def offer(self, state: ChannelState, agent: str) -> SessionOffer:
        return state.member(agent).offer or SessionOffer()

    def known_offer(self, agent: str) -> SessionOffer | None:
        """What the agent's sessions last offered, in any channel (for the presets' warnings)."""
        for state in self._registry.states.values():
            member = state.stored.sessions.get(agent)
            if member is not None and member.offer is not None:
                return member.offer
        return None

    # ---- what the person chooses -------------------------------------------------------------

    async def set_mode(self, session: LiveSession, mode: str) -> SessionOffer:
        """The person chooses a mode: kept as their choice once the agent accepted it."""
        offer = await self._send_mode(session, mode)
        session.state.member(session.agent).chosen_mode = mode
        self._save(session.state)
        return offer

    async def set_option(
        self, session: LiveSession, option_id: str, value: str | bool
    ) -> SessionOffer:
        """The person chooses an option's value: kept as their choice once accepted."""
        offer = await self._send_option(session, option_id, value)
        session.state.member(session.agent).chosen_options[option_id] = value
        self._save(session.state)
        return offer

    async def apply_choices(self, session: LiveSession) -> None:
        """For a NEW session: the person's choices in this channel, or else the agent's
        presets. One that the session does not offer (or the agent refuses) is skipped with a
        note in the agent's log; the session stays open whatever happens."""
        state, agent = session.state, session.agent
        member = state.member(agent)
        preset = self._presets(agent)
        mode = member.chosen_mode or preset.mode
        if mode and mode != self.offer(state, agent).mode:
            try:
                await self._send_mode(session, mode)
            except UserError as err:
                self._skipped(session, str(err))
        for option_id, value in {**preset.options, **member.chosen_options}.items():
            offered = offered_option(self.offer(state, agent), option_id)
            if offered is not None and offered.value == value:
                continue
            try:
                await self._send_option(session, option_id, value)
            except UserError as err:
                self._skipped(session, str(err))

    # ---- internals ---------------------------------------------------------------------------

    async def _send_mode(self, session: LiveSession, mode: str) -> SessionOffer:
        state, agent = session.state, session.agent
        if problem := mode_problem(agent, self.offer(state, agent), mode):
            raise UserError(problem)
        try:
            await session.conn.set_mode(session.session_id, mode)
        except Exception as err:
            raise UserError(describe_error(err)) from None
        return self._changed(
            state, agent, self.offer(state, agent).model_copy(update={"mode": mode})
        )

    async def _send_option(
        self, session: LiveSession, option_id: str, value: str | bool
    ) -> SessionOffer:
        state, agent = session.state, session.agent
        if problem := option_problem(agent, self.offer(state, agent), option_id, value):
            raise UserError(problem)
        option = offered_option(self.offer(state, agent), option_id)
        option_id = option.id if option is not None else option_id
        try:
            if option is not None and option.via == "set_model" and isinstance(value, str):
                await session.conn.set_model(session.session_id, value)
                options: tuple[SessionOption, ...] = ()  # it answers {}: the one it accepted
            else:
                options = await session.conn.set_option(session.session_id, option_id, value)
        except Exception as err:
            raise UserError(describe_error(err)) from None
        offer = self.offer(state, agent)
        if not options:  # an agent that answers without its options: the one it accepted
            chosen = [
                o.model_copy(update={"value": value}) if o.id == option_id else o
                for o in offer.options
            ]
            return self._changed(state, agent, offer.model_copy(update={"options": chosen}))
        return self._changed(state, agent, self._with_options(offer, options))

    def _skipped(self, session: LiveSession, problem: str) -> None:
        note = _("a mode or option for the new session was skipped: {problem}").format(
            problem=problem
        )
        session.conn.note(note)
        log.warning("%s: %s", session.agent, note)

    def _with_options(
        self, offer: SessionOffer, options: tuple[SessionOption, ...]
    ) -> SessionOffer:
        infos = [option_info(o) for o in options]
        older = [o for o in offer.options if o.via == "set_model"]  # `models`: kept
        if older and not any(o.category == "model" for o in infos):
            infos = [*older, *infos]
        return offer.model_copy(update={"options": infos})

    def _changed(self, state: ChannelState, agent: str, offer: SessionOffer) -> SessionOffer:
        state.member(agent).offer = offer
        if self._save(state):
            self._publisher.session(state, agent, offer)
        return offer

    def _save(self, state: ChannelState) -> bool:
        """Keeps the member records, unless the channel was deleted meanwhile (an await away):
        saving would bring it back."""
        if not self._registry.is_current(state):
            return False
        self._registry.save(state)
        return True
