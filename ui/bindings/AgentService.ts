// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AgentInfo, AgentSession, CatalogEntry } from "./models";

/** Extension (issue 27): writes catalog entry `id` into the YAML as a new agent (its comments and order kept), checked like a Save; `name` "" picks a unique one, `cwd` "" leaves the folder out (home). Returns the new agent. */
export function Add(id: string, name: string, cwd: string): Promise<AgentInfo> {
  return call("AgentService", "Add", id, name, cwd);
}

/** Extension (issue 27): the agents one may add: the ACP Registry's (as fetched, cached, or the built-in short list when offline) and the ACP programs found on PATH, the well-known ones first, each with what it still needs and the agents already running it. */
export function Catalog(): Promise<CatalogEntry[]> {
  return call("AgentService", "Catalog");
}

/** All agents, in configuration order. */
export function List(): Promise<AgentInfo[]> {
  return call("AgentService", "List");
}

/** The agent's last 200 stderr lines. */
export function Logs(name: string): Promise<string[]> {
  return call("AgentService", "Logs", name);
}

/** Extension (issue 27): removes the agent from the YAML (its comments go with it). */
export function Remove(name: string): Promise<void> {
  return call("AgentService", "Remove", name);
}

/** Stops then starts the agent, applying a changed definition. */
export function Restart(name: string): Promise<AgentInfo> {
  return call("AgentService", "Restart", name);
}

/** Extension (issue 26): the agent's own sessions in its folder (ACP `session/list`, every page), newest first as the agent gives them; the agent is started if needed. Refused when the agent does not list its sessions. */
export function Sessions(name: string): Promise<AgentSession[]> {
  return call("AgentService", "Sessions", name);
}

/** Starts the agent and waits until it is ready; its error otherwise. */
export function Start(name: string): Promise<AgentInfo> {
  return call("AgentService", "Start", name);
}

/** Stops the agent (stdin closed, 5 s, SIGTERM, 3 s, SIGKILL). */
export function Stop(name: string): Promise<AgentInfo> {
  return call("AgentService", "Stop", name);
}
