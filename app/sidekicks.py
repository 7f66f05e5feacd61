"""The headless composition root: the core loop, the stores and the services, without a window.

with Sidekicks(config="path/to/config.yaml") as sk:
    sk.api.ConfigService.Current()
    sk.events.subscribe(lambda name, payload: ...)
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from types import TracebackType

from app.agents.gallery.gallery import Gallery
from app.agents.gallery.service import GalleryService
from app.agents.service import AgentService
from app.agents.sign_in_service import SignInService
from app.agents.sign_in_terminals import SignInTerminals
from app.agents.supervisor import Supervisor, Tuning
from app.api import Api
from app.attention.desktop import DesktopNotifications
from app.attention.tracker import AttentionTracker
from app.channels.attachment_service import AttachmentService
from app.channels.export.service import ExportService
from app.channels.fork_service import ForkService
from app.channels.found_pages import FoundPages
from app.channels.handoffs.service import HandoffService
from app.channels.parts import ChannelParts
from app.channels.service import ChannelService
from app.channels.session_service import SessionService
from app.config.service import ConfigService
from app.config.startup import Startup, startup_config
from app.config.store import ConfigStore
from app.core import leftovers
from app.core.loop import LoopThread
from app.events.bus import EventBus
from app.history.base import History
from app.history.open import open_history
from app.inbox.service import InboxService
from app.paths import data_dir
from app.search.service import SearchService
from app.workspace.checkpoint_service import CheckpointService
from app.workspace.service import ChangesService
from app.workspace.worktrees.service import WorktreeService

log = logging.getLogger(__name__)
CLOSE_TIMEOUT = 20.0  # agents stop in parallel within ~8 s


class Sidekicks:
    def __init__(
        self, config: str | os.PathLike[str] | None = None, *, tuning: Tuning | None = None
    ) -> None:
        self._config_flag = config
        self._core = LoopThread()
        self.events = EventBus()
        self._store = ConfigStore(self.events, self._core)
        self._supervisor = Supervisor(self.events, tuning)
        self._store.config_listeners.append(
            lambda config: self._supervisor.apply_config(config, self._store.path.parent)
        )
        self._parts = ChannelParts(self.events, self._supervisor)  # the conversations
        # Unread answers, pending permissions and notifications (issue 17): a bus subscriber.
        self._notifications = DesktopNotifications(
            lambda notice: self._core.call_soon(lambda: self._attention.opened(notice))
        )
        self._attention = AttentionTracker(self.events, self._notifications)
        self._store.config_listeners.append(
            lambda config: self._attention.configure(
                config.notifications, {a.name: a.display_title for a in config.agents}
            )
        )
        self._store.config_listeners.append(
            lambda config: self._parts.checkpointing.configure(
                config.checkpoints.enabled,
                list(config.checkpoints.ignore),
                config.checkpoints.max_file_bytes,
            )
        )
        self._store.known_offer = self._parts.settings.known_offer  # presets' warnings
        self._terminals = SignInTerminals(self.events, self._supervisor)
        # Issue 27: the registry, the programs on PATH, binary installs, Add and Remove.
        self._gallery = Gallery(self.events, self._supervisor, self._store)
        # Open(path): stop the answers and close this history, end the sign-in terminals, stop
        # the agents, then switch.
        self._store.before_open += [
            self._parts.detach,
            self._terminals.close_all,
            self._supervisor.stop_all,
        ]
        self._store.after_open.append(self._open_history)
        self.api = self._services()
        self._started = False

    def _services(self) -> Api:
        """One service per feature, each given the parts it uses."""
        parts, core = self._parts, self._core
        return Api(
            AgentService=AgentService(self._supervisor, core, self._gallery),
            ConfigService=ConfigService(self._store, core),
            ChannelService=ChannelService(parts, core),
            SessionService=SessionService(parts, core),
            ChangesService=ChangesService(parts.changes, parts.registry.get, core),
            CheckpointService=CheckpointService(
                parts.restoring,
                parts.registry.get,
                lambda: list(parts.registry.states),
                parts.restored,
                core,
            ),
            AttachmentService=AttachmentService(parts, core),
            SearchService=SearchService(FoundPages(parts)),
            ExportService=ExportService(parts, core),
            InboxService=InboxService(parts, self._attention, core),
            SignInService=SignInService(self._supervisor, core, self._terminals, self.events),
            GalleryService=GalleryService(self._gallery, core),
            HandoffService=HandoffService(
                parts.registry, parts.publisher, parts.handoffs, parts.turns, core
            ),
            ForkService=ForkService(parts, core),
            WorktreeService=WorktreeService(parts.isolation, parts.worktrees, core),
        )

    def start(self, startup: Startup | None = None) -> Sidekicks:
        """Opens `startup`, else the configuration the flag resolves to (raises ConfigError if
        it cannot be read). The window resolves it itself, before the backend starts on its own
        thread (app/bridge/starting.py): a file that cannot be read is said with no window."""
        leftovers.sweep_in_background()  # what a killed earlier run left (never delays the start)
        startup = startup or startup_config(self._config_flag)
        self._core.start()
        self._started = True
        try:
            self._core.call(
                lambda: self._store.load(
                    startup.path, startup.text, startup.source, startup.created
                )
            )
            self._core.run(self._open_history(startup.path))
            self._core.call(self._gallery.start)  # the registry fetched in the background
        except BaseException:
            self.close()
            raise
        return self

    async def _open_history(self, config_path: Path) -> None:
        history = open_history(config_path)
        self._store.history_problem = history.problem
        # Damage found later (by a read, on any thread) reaches the page through the loop.
        history.on_problem(
            lambda problem: self._core.call_soon(lambda: self._history_problem(history, problem))
        )
        self._attention.attach(history)  # counts start afresh, before the channels are told
        # Pasted images are kept in the data folder; the configuration is no agent's to write.
        self._parts.attach(history, data_dir(config_path), config_path)

    def _history_problem(self, history: History, problem: str) -> None:
        if self._parts.history is history:  # not one replaced by another configuration's
            self._store.set_history_problem(problem)

    @property
    def notifications(self) -> DesktopNotifications:
        return self._notifications

    @property
    def config_path(self) -> Path:
        return self._store.path

    def close(self) -> None:
        if not self._started:
            return
        self._started = False
        try:
            self._core.run(self._parts.detach(), timeout=CLOSE_TIMEOUT)
        except Exception:
            log.exception("answers did not all stop in time")
        try:
            self._core.run(self._terminals.close_all(), timeout=CLOSE_TIMEOUT)
        except Exception:
            log.exception("sign-in terminals did not all end in time")
        try:
            self._core.run(self._gallery.close(), timeout=CLOSE_TIMEOUT)
        except Exception:
            log.exception("the gallery's downloads did not all end in time")
        try:
            self._core.run(self._supervisor.stop_all(), timeout=CLOSE_TIMEOUT)
        except Exception:
            log.exception("agents did not all stop in time")
        try:
            self._core.call(self._store.close)
        finally:
            self._core.stop()
            self._notifications.close()

    def __enter__(self) -> Sidekicks:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
