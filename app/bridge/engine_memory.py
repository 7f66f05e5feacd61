"""Lets the page give back the memory its start-up left (issue 29, memory).

Once the page's start-up work is done (the warm-up of the message views, parts/warmUp.ts),
the page asks its JavaScript engine for one memory-reducing collection
(`ui/src/lib/engineMemory.ts`). V8 offers that to a page only as the `gc` function of
`--js-flags=--expose-gc`; QtWebEngine takes Chromium's switches from QTWEBENGINE_CHROMIUM_FLAGS,
read when its first page is made. Measured beside the same build (docs/benchmarks.md,
"Memory"): the idle renderer 2 MB smaller; without it V8 had not collected the start-up's
garbage 20 s later.

`gc` is then a property of the page's global object that V8 makes impossible to delete. It is
harmless there: it can only make the page's engine collect its garbage, and only the page's
own scripts run (the CSP: nothing an agent writes is a script). A person's own
`--js-flags` are kept as they are (Chromium reads only one; the page then finds no `gc` and
does nothing). The programs the app starts get the person's value back
(`paths.child_environment`).
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

from app.paths import ENGINE_FLAGS, ENGINE_FLAGS_BEFORE_US

EXPOSE_COLLECTOR = "--js-flags=--expose-gc"


def expose_collector(environ: MutableMapping[str, str] | None = None) -> bool:
    """Adds the switch for QtWebEngine (before its first page is made); False when the
    person's flags already choose V8's."""
    env = os.environ if environ is None else environ
    flags = env.get(ENGINE_FLAGS, "")
    if "--js-flags" in flags or ENGINE_FLAGS_BEFORE_US in env:
        return False
    env[ENGINE_FLAGS_BEFORE_US] = flags
    env[ENGINE_FLAGS] = f"{flags} {EXPOSE_COLLECTOR}".strip()
    return True
