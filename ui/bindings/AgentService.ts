// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AgentInfo, AgentSession } from "./models";

/** All agents, in configuration order. */
export function List(): Promise<AgentInfo[]> {
  return call("AgentService", "List");
}

/** The agent's last 200 stderr lines. */
export function Logs(name: string): Promise<string[]> {
  return call("AgentService", "Logs", name);
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
