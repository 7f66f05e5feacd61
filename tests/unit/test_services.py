"""One service per feature (issue 23): the SPEC's three services expose the SPEC's methods and
what belongs to them, each extension lives in the service of its feature, and every service of
the js_api root is in ui/bindings and behind the bridge's allow-list."""

from __future__ import annotations

import inspect
import types
from pathlib import Path

import pytest

from app.api import Api, service_classes
from app.bridge import allowlist

BINDINGS = Path(__file__).resolve().parents[2] / "ui" / "bindings"

# Every service and the methods it exposes, as the page calls them.
SERVICES = {
    "AgentService": {
        "List", "Start", "Stop", "Restart", "Logs", "Sessions", "Catalog", "Add", "Remove",
    },
    "ConfigService": {
        "Current", "Open", "Choose", "Recent", "Content", "Validate", "Save", "Schema",
        "Preferences", "SetPreferences",
    },
    "ChannelService": {
        "List", "Create", "Rename", "Delete", "AddMember", "RemoveMember", "Direct", "Send",
        "Cancel", "AnswerPermission", "AnswerElicitation", "Conversation", "Older", "Commands",
        "Prepare", "Resend",
        "NewSession", "OpenSession", "NewConversation",
    },
    "SessionService": {"SetMode", "SetOption"},
    "ChangesService": {"Changes", "Revert", "RevertHunk"},
    "CheckpointService": {
        "Checkpoints", "RestorePreview", "Restore", "StoreInfo", "ClearCheckpoints",
    },
    "AttachmentService": {
        "AttachFile", "AttachImage", "ChooseFiles", "RemoveAttachment", "AttachmentData",
        "DroppedPaths",
    },
    "SearchService": {"Search", "Around", "Newer"},
    "ExportService": {"Export", "SaveExport", "MessageMarkdown"},
    "InboxService": {
        "Permissions", "Elicitations", "PermissionRules", "RevokePermissionRule", "Viewing",
        "Attention",
        "LastViewed",
    },
    "SignInService": {
        "SignIn", "SignOut", "SignInTerminal", "TerminalInput", "TerminalResize", "TerminalClose",
        "SignInCode", "CancelSignIn",
    },
    "GalleryService": {"RegistryInfo", "Refresh", "Install", "CancelInstall", "ChooseFolder"},
    "HandoffService": {"SetHandoffs", "ContinueHandoffs"},
    "ForkService": {"Fork"},
    "WorktreeService": {
        "Worktrees", "SetIsolation", "MergeWorktree", "ResolveConflict", "DiscardWorktree",
    },
}  # fmt: skip


def exposed(service: type) -> set[str]:
    return {
        name
        for name, method in inspect.getmembers(service, inspect.isfunction)
        if getattr(method, "__exposed__", False)
    }


def test_the_api_root_holds_exactly_the_services() -> None:
    assert [service.__name__ for service in service_classes()] == list(SERVICES)


@pytest.mark.parametrize("service", service_classes(), ids=lambda s: s.__name__)
def test_each_service_exposes_exactly_its_methods(service: type) -> None:
    assert exposed(service) == SERVICES[service.__name__]


def test_no_method_name_is_exposed_by_two_services_but_list() -> None:
    """The page's names stay unambiguous: only `List` (agents, channels) is on two services."""
    seen: dict[str, list[str]] = {}
    for service in service_classes():
        for method in exposed(service):
            seen.setdefault(method, []).append(service.__name__)
    assert {m: s for m, s in seen.items() if len(s) > 1} == {
        "List": ["AgentService", "ChannelService"]
    }


@pytest.mark.parametrize("service", service_classes(), ids=lambda s: s.__name__)
def test_every_service_is_generated_into_the_bindings(service: type) -> None:
    name = service.__name__
    module = (BINDINGS / f"{name}.ts").read_text(encoding="utf-8")
    assert module.startswith("// generated — do not edit")
    for method in exposed(service):
        assert f"export function {method}(" in module
        assert f'call("{name}", "{method}"' in module
    index = (BINDINGS / "index.ts").read_text(encoding="utf-8")
    assert f'export * as {name} from "./{name}";' in index


def test_the_bridge_allows_every_services_exposed_methods_and_nothing_else() -> None:
    services = {s.__name__: s.__new__(s) for s in service_classes()}
    allowed = allowlist.allowed_calls(types.SimpleNamespace(**services))
    assert allowed == {f"{s}.{m}" for s, methods in SERVICES.items() for m in methods}


def test_the_api_root_has_no_public_attribute_but_the_services() -> None:
    """pywebview walks every public attribute of the js_api root (app/api.py)."""
    services = {s.__name__: s.__new__(s) for s in service_classes()}
    api = Api(**services)  # type: ignore[arg-type]
    assert [n for n in dir(api) if not n.startswith("_")] == sorted(SERVICES)
