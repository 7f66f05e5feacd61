"""The manual check with the real agents: what each one says to Sidekicks, through Sidekicks.

    .venv/bin/python scripts/check_agents.py [claude codex gemini opencode] [--json]
    scripts/agents.sh check [NAMES…]          the same, from the launcher

For each agent (started by scripts/agents.sh, so with the same command a configuration would
use) it runs the headless app (`from app import Sidekicks`) on a throwaway configuration:
starts the agent, lists its sign-in methods (`AgentService.List()` → `authMethods`), opens its
direct conversation's session (`ChannelService.Prepare`) and prints what the session offers
(`Conversation(id).sessions` → modes and options) or why it could not open ("needs sign-in"
and the agent's own explanation). Nothing is sent to a model and no credential is asked for.

The adapters come from npm (`npx -y …`) the first time; where their model services cannot be
reached (as on CI machines) the report still shows the handshake, the methods and the errors —
which is what the fakes in tests/fakes must match. docs/agents.md (the manual check) says what to
check by hand in the window afterwards (sign in, pick a mode and a model, send a message).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from app.agents.supervisor import Tuning  # noqa: E402
from app.core.errors import UserError  # noqa: E402
from app.paths import data_dir  # noqa: E402

KNOWN = ("claude", "codex", "gemini", "opencode")
# `npx -y` may download the adapter first.
TUNING = Tuning(initialize_timeout=180.0)


def check(name: str, workdir: Path) -> dict[str, Any]:
    """What the agent `name` announced, as a plain dict for the report."""
    launcher = json.dumps([str(ROOT / "scripts" / "agents.sh"), name])
    config = workdir / name / "agents.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    cwd = json.dumps(str(workdir))
    config.write_text(
        f"agents:\n  - name: {name}\n    command: {launcher}\n    cwd: {cwd}\n", encoding="utf-8"
    )
    report: dict[str, Any] = {"agent": name}
    try:
        _run(name, config, report)
    finally:
        shutil.rmtree(data_dir(config), ignore_errors=True)  # the throwaway history
    return report


def _run(name: str, config: Path, report: dict[str, Any]) -> None:
    with Sidekicks(config=config, tuning=TUNING) as sk:
        agents, channels = sk.api.AgentService, sk.api.ChannelService
        try:
            agents.Start(name)
        except UserError as err:
            report["start"] = f"failed: {err}"
            return
        report["start"] = "ready"
        channel = channels.Direct(name).id
        try:
            channels.Prepare(channel)
        except UserError as err:
            report["session"] = f"failed: {err}"
        info = next(a for a in agents.List() if a.name == name)
        report["needsSignIn"] = info.needs_sign_in
        report["authMethods"] = [
            {"id": m.id, "type": m.type, "name": m.name, "vars": [v.name for v in m.vars]}
            | ({"command": m.command} if m.command else {})
            for m in info.auth_methods
        ]
        sessions = channels.Conversation(channel).get("sessions", {})
        session = sessions.get(name)
        if session:
            report["modes"] = [m["id"] for m in session.get("modes", [])]
            report["mode"] = session.get("mode", "")
            report["options"] = {
                o["id"]: {"value": o["value"], "choices": [c["value"] for c in o["choices"]]}
                for o in session.get("options", [])
            }
        elif "session" not in report:
            report["session"] = "not opened (see needsSignIn and the agent's log)"
        report["log"] = agents.Logs(name)[-5:]


def print_report(report: dict[str, Any]) -> None:
    print(f"== {report['agent']}: start {report['start']}")
    for method in report.get("authMethods", []):
        extra = method.get("command") or method.get("vars") or ""
        print(f"   sign-in  {method['type']:8} {method['id']:20} {method['name']}  {extra}")
    if report.get("needsSignIn"):
        print("   needs sign-in: yes")
    if "session" in report:
        print(f"   session  {report['session']}")
    if report.get("modes"):
        print(f"   modes    {', '.join(report['modes'])} (current: {report['mode']})")
    for option, detail in report.get("options", {}).items():
        print(f"   option   {option} = {detail['value']} of {', '.join(detail['choices'])}")
    for line in report.get("log", []):
        print(f"   log      {line[:160]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("agents", nargs="*", default=list(KNOWN), help="agents.sh names")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sidekicks-check-") as tmp:
        reports = [check(name, Path(tmp)) for name in args.agents]
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        for report in reports:
            print_report(report)
    return 0 if all(r["start"] == "ready" for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
