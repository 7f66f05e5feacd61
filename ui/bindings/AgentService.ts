// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AgentInfo, SignInTerminalInfo } from "./models";

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

/** Signs in to the agent with one of its methods (starting it if needed): `agent` ones by ACP `authenticate`; `env_var` ones with `values` (every variable of the method), saved in the keychain (or an owner-only file) and given to the agent at each start. `terminal` ones use SignInTerminal. The agent's info, or its error. */
export function SignIn(name: string, methodId: string, values: Record<string, string>): Promise<AgentInfo> {
  return call("AgentService", "SignIn", name, methodId, values);
}

/** Extension: runs a `terminal` sign-in method's command on a pseudo-terminal of `cols`×`rows`; when it exits the agent restarts to use the new credentials. */
export function SignInTerminal(name: string, methodId: string, cols: number, rows: number): Promise<SignInTerminalInfo> {
  return call("AgentService", "SignInTerminal", name, methodId, cols, rows);
}

/** Extension: forgets the values saved for the agent's `env_var` methods (keychain or file) and restarts it without them if it runs. */
export function SignOut(name: string): Promise<AgentInfo> {
  return call("AgentService", "SignOut", name);
}

/** Starts the agent and waits until it is ready; its error otherwise. */
export function Start(name: string): Promise<AgentInfo> {
  return call("AgentService", "Start", name);
}

/** Stops the agent (stdin closed, 5 s, SIGTERM, 3 s, SIGKILL). */
export function Stop(name: string): Promise<AgentInfo> {
  return call("AgentService", "Stop", name);
}

/** Extension: ends a sign-in terminal (its command's process group is killed). */
export function TerminalClose(terminal: string): Promise<void> {
  return call("AgentService", "TerminalClose", terminal);
}

/** Extension: what the person typed in a sign-in terminal. */
export function TerminalInput(terminal: string, data: string): Promise<void> {
  return call("AgentService", "TerminalInput", terminal, data);
}

/** Extension: the sign-in terminal's new size in characters. */
export function TerminalResize(terminal: string, cols: number, rows: number): Promise<void> {
  return call("AgentService", "TerminalResize", terminal, cols, rows);
}
