// What the Agents panel says and allows per agent state (SPEC §1); a state's name on screen is lib/ui/StateBadge's.

import type { AgentInfo } from "../../bindings";
import { sentence } from "../lib/errors";
import { t } from "../lib/i18n.svelte";

export type AgentState = AgentInfo["state"];

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
