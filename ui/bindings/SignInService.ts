// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AgentInfo, SignInTerminalInfo } from "./models";

/** Extension: gives up the agent's `agent` method sign-in under way (SignIn then fails with "the sign-in was cancelled") and restarts the agent, which may still be waiting for a code. Nothing under way: nothing happens. */
export function CancelSignIn(name: string): Promise<void> {
  return call("SignInService", "CancelSignIn", name);
}

/** Signs in to the agent with one of its methods (starting it if needed): `agent` ones by ACP `authenticate`; `env_var` ones with `values` (every variable of the method), saved in the keychain (or an owner-only file) and given to the agent at each start. `terminal` ones use SignInTerminal. The agent's info, or its error. */
export function SignIn(name: string, methodId: string, values: Record<string, string>): Promise<AgentInfo> {
  return call("SignInService", "SignIn", name, methodId, values);
}

/** Extension: the code an `agent` method's sign-in asked for (`signin:prompt` with `asksCode`), written on the agent's stdin where it waits for it (gemini's "Enter the authorization code"). SignIn then answers whether it worked. */
export function SignInCode(name: string, code: string): Promise<void> {
  return call("SignInService", "SignInCode", name, code);
}

/** Extension: runs a `terminal` sign-in method's command on a pseudo-terminal of `cols`×`rows`; when it exits the agent restarts to use the new credentials. */
export function SignInTerminal(name: string, methodId: string, cols: number, rows: number): Promise<SignInTerminalInfo> {
  return call("SignInService", "SignInTerminal", name, methodId, cols, rows);
}

/** Extension: forgets the values saved for the agent's `env_var` methods (keychain or file) and restarts it without them if it runs. */
export function SignOut(name: string): Promise<AgentInfo> {
  return call("SignInService", "SignOut", name);
}

/** Extension: ends a sign-in terminal (its command's process group is killed). */
export function TerminalClose(terminal: string): Promise<void> {
  return call("SignInService", "TerminalClose", terminal);
}

/** Extension: what the person typed in a sign-in terminal. */
export function TerminalInput(terminal: string, data: string): Promise<void> {
  return call("SignInService", "TerminalInput", terminal, data);
}

/** Extension: the sign-in terminal's new size in characters. */
export function TerminalResize(terminal: string, cols: number, rows: number): Promise<void> {
  return call("SignInService", "TerminalResize", terminal, cols, rows);
}
