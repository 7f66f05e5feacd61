"""An answer's checkpoint record, kept in the history with the channel (History.put_checkpoint):
its agent, its times, and for each folder the snapshots before and after it (what Restore goes
back to, and what deleting the channel forgets), with the files its snapshots skipped."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from app.checkpoints.model import Snapshot
from app.workspace.answer_watch import AnswerWatch, now_iso


def checkpoint_record(watch: AnswerWatch) -> dict[str, Any]:
    return {
        "agent": watch.agent,
        "startedAt": watch.started_at,
        "endedAt": now_iso() if watch.ended else "",
        "folders": [
            {
                "root": f.root,
                "before": _snapshot_json(f.snapshots[0]),
                "after": _snapshot_json(f.snapshots[-1]) if watch.ended else None,
            }
            for f in watch.folders.values()
        ],
        "skipped": _skipped(watch),
    }


def _skipped(watch: AnswerWatch) -> list[dict[str, Any]]:
    """What the answer's first and last snapshots left out, each file once."""
    found: dict[str, dict[str, Any]] = {}
    for folder in watch.folders.values():
        for snapshot in (folder.snapshots[0], folder.snapshots[-1]):
            for skipped in snapshot.skipped:
                path = str(Path(folder.root, *PurePosixPath(skipped.path).parts))
                found[path] = {"path": path, "size": skipped.size, "reason": skipped.reason}
    return [found[path] for path in sorted(found)]


def snapshots_of(records: list[tuple[str, bytes]]) -> dict[str, set[str]]:
    """The snapshot ids the records name, by folder (a damaged record is passed over)."""
    by_root: dict[str, set[str]] = {}
    for _answer, raw in records:
        try:
            for folder in json.loads(raw)["folders"]:
                for side in ("before", "after"):
                    if folder.get(side):
                        by_root.setdefault(folder["root"], set()).add(folder[side]["id"])
        except (ValueError, KeyError, TypeError):
            continue
    return by_root


def _snapshot_json(snapshot: Snapshot) -> dict[str, str]:
    return {"id": snapshot.id, "commit": snapshot.commit_id}
