"""Windows: one kill-on-close Job Object per app for the programs that have no job of their own
(sign-in terminals): when the app ends, however it ends, Windows closes the job's only handle
and ends every process in it (see lifeline.py). Agents and the commands they run each have
their own job (process_tree_windows.py), with the same effect at the app's end."""

from __future__ import annotations

from app.core.winjob import Job, Kernel32

_job: Job | None = None  # never closed by us: the app's end closes it, and ends its processes
_refused = False


def assign_to_job(pid: int, api: Kernel32 | None = None) -> bool:
    """Puts a just-started process in the app's job (made on first use); False if refused."""
    global _job, _refused
    if _job is None and not _refused:
        _job = Job.create(api)
        _refused = _job is None
    return _job is not None and _job.assign(pid)
