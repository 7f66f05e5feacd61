// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AgentInfo } from "./models";

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

/** Starts the agent and waits until it is ready; its error otherwise. */
export function Start(name: string): Promise<AgentInfo> {
  return call("AgentService", "Start", name);
}

/** Stops the agent (stdin closed, 5 s, SIGTERM, 3 s, SIGKILL). */
export function Stop(name: string): Promise<AgentInfo> {
  return call("AgentService", "Stop", name);
}
