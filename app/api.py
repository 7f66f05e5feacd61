"""The object handed to pywebview as `js_api`: the services and nothing else.

pywebview walks every public attribute recursively and exposes every method it finds, so this
object has exactly the services as public attributes; everything else is private. The SPEC's
three services first, then one service per extension feature (as Wails v3 binds one service
per feature), each in its feature's folder. scripts/gen_bindings.py generates one module of
ui/bindings per field; the bridge allows exactly their exposed methods (bridge/allowlist.py).
"""

from __future__ import annotations

import dataclasses
import typing

from app.agents.gallery.service import GalleryService
from app.agents.service import AgentService
from app.agents.sign_in_service import SignInService
from app.channels.attachment_service import AttachmentService
from app.channels.export.service import ExportService
from app.channels.fork_service import ForkService
from app.channels.handoffs.service import HandoffService
from app.channels.service import ChannelService
from app.channels.session_service import SessionService
from app.config.service import ConfigService
from app.inbox.service import InboxService
from app.search.service import SearchService
from app.workspace.checkpoint_service import CheckpointService
from app.workspace.service import ChangesService
from app.workspace.worktrees.service import WorktreeService


@dataclasses.dataclass(frozen=True, eq=False, kw_only=True)
class Api:
    AgentService: AgentService
    ConfigService: ConfigService
    ChannelService: ChannelService
    SessionService: SessionService
    ChangesService: ChangesService
    CheckpointService: CheckpointService
    AttachmentService: AttachmentService
    SearchService: SearchService
    ExportService: ExportService
    InboxService: InboxService
    SignInService: SignInService
    GalleryService: GalleryService
    HandoffService: HandoffService
    ForkService: ForkService
    WorktreeService: WorktreeService


def service_classes() -> list[type]:
    """Each service of the js_api root, in the order of its fields (the page's names)."""
    return list(typing.get_type_hints(Api).values())
