// What each agent state is called on screen and which actions it allows (SPEC §1).
// The msgids are literal so the extractor finds them: never build them from the state's name.

import type { AgentInfo } from "../../bindings";
import { sentence } from "../lib/errors";
import { t } from "../lib/i18n.svelte";

export type AgentState = AgentInfo["state"];

export function stateLabel(state: AgentState): string {
  switch (state) {
    case "stopped":
      return t("stopped");
    case "starting":
      return t("starting…");
    case "ready":
      return t("ready");
    case "busy":
      return t("busy");
    case "error":
      return t("error");
  }
}

export function outdatedLabel(): string {
  return t("restart to apply changes");
}

/** ▶ when nothing runs; ■ whenever something runs or starts; ⟳ once it is up. */
export function allowedActions(state: AgentState): { start: boolean; stop: boolean; restart: boolean } {
  return {
    start: state === "stopped" || state === "error",
    stop: state === "starting" || state === "ready" || state === "busy",
    restart: state === "ready" || state === "busy",
  };
}

/** An error is the reason on its first line, then the agent's last stderr lines. */
export function splitError(error: string): { reason: string; tail: string } {
  const newline = error.indexOf("\n");
  if (newline < 0) return { reason: sentence(error), tail: "" };
  return { reason: sentence(error.slice(0, newline)), tail: error.slice(newline + 1) };
}
