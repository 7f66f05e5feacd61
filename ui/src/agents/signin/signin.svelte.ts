// Sign-ins in progress and their outcome, per agent, shared by the agent's card and the
// conversation notice (a sign-in started on one shows on the other). A sign-in may wait minutes
// for a browser login: nothing here blocks the page, the person goes on meanwhile.
// Values typed for `env_var` methods pass through `signIn` to the backend and are kept nowhere.
// An `agent` method's agent may print a web address and ask for a code meanwhile (gemini's "Log
// in with Google" without a browser): `signin:prompt` events (terminal "") say so, `sendCode`
// answers it, `cancel` gives the sign-in up ("Signing in…" always has a Cancel).

import { On, SignInService, type AgentInfo, type SignInPrompt } from "../../../bindings";
import { agents } from "../../lib/agents.svelte";
import { messageOf } from "../../lib/errors";

class SignIns {
  /** The method being signed in with, by agent. */
  pending = $state<Record<string, string>>({});
  /** What the agent printed for the person during its pending sign-in: a link, a code asked. */
  prompts = $state<Record<string, SignInPrompt>>({});
  /** The method an agent was signed in with from this window (its name, for the sentence). */
  recoveredWith = $state<Record<string, string>>({});
  /** Why the last sign-in (or sign-out) failed, by agent, in the backend's words. */
  errors = $state<Record<string, string>>({});
  /** Agents signed in from this window while they needed it: their conversations offer
   *  "Send again" (the message that failed for want of a sign-in) until it is used or dismissed. */
  recovered = $state<Record<string, boolean>>({});
  /** Agents being signed out. */
  signingOut = $state<Record<string, boolean>>({});

  /** Signs in to `agent` with one of its methods (`values` for `env_var` ones); true if it did. */
  async signIn(agent: string, methodId: string, values: Record<string, string> = {}): Promise<boolean> {
    if (this.pending[agent]) return false;
    const info = agents.byName(agent);
    const needed = info?.needsSignIn ?? false;
    const method = info?.authMethods.find((m) => m.id === methodId)?.name ?? "";
    this.pending[agent] = methodId;
    delete this.errors[agent];
    delete this.prompts[agent];
    const off = On("signin:prompt", (prompt) => {
      if (prompt.agent === agent && prompt.terminal === "" && this.pending[agent] === methodId) this.prompts[agent] = prompt;
    });
    try {
      update(await SignInService.SignIn(agent, methodId, values));
      this.succeeded(agent, needed, method);
      return true;
    } catch (err) {
      if (!this.#cancelling.has(agent)) this.errors[agent] = messageOf(err);
      return false;
    } finally {
      off();
      this.#cancelling.delete(agent);
      delete this.pending[agent];
      delete this.prompts[agent];
    }
  }

  #cancelling = new Set<string>();

  /** Gives up `agent`'s sign-in under way (the backend restarts the agent); no error is shown. */
  async cancel(agent: string): Promise<void> {
    if (!this.pending[agent]) return;
    this.#cancelling.add(agent);
    try {
      await SignInService.CancelSignIn(agent);
    } catch (err) {
      this.#cancelling.delete(agent);
      this.errors[agent] = messageOf(err);
    }
  }

  /** The code the agent asked for; an error (in the backend's words) shows like a failed sign-in. */
  async sendCode(agent: string, code: string): Promise<boolean> {
    try {
      await SignInService.SignInCode(agent, code);
      delete this.errors[agent];
      return true;
    } catch (err) {
      this.errors[agent] = messageOf(err);
      return false;
    }
  }

  /** Forgets the saved values of `agent`'s methods; true if it did. */
  async signOut(agent: string): Promise<boolean> {
    this.signingOut[agent] = true;
    delete this.errors[agent];
    try {
      update(await SignInService.SignOut(agent));
      return true;
    } catch (err) {
      this.errors[agent] = messageOf(err);
      return false;
    } finally {
      delete this.signingOut[agent];
    }
  }

  /** A sign-in completed (here, or a terminal method's command exited with 0); `needed`: the
   *  agent needed it when it began. */
  succeeded(agent: string, needed: boolean, method = ""): void {
    delete this.errors[agent];
    if (needed) {
      this.recovered[agent] = true;
      this.recoveredWith[agent] = method;
    }
  }

  /** "Send again" was used or dismissed, or a message was sent since. */
  forget(agent: string): void {
    delete this.recovered[agent];
    delete this.recoveredWith[agent];
  }

  /** A sign-in failed elsewhere (a terminal that could not start…). */
  failed(agent: string, message: string): void {
    this.errors[agent] = message;
  }
}

/** The agent's fresh info, as a sign-in or sign-out answered it, in the agents list at once
 *  (its `agent:state` event reloads the whole list a moment later anyway). */
function update(info: AgentInfo): void {
  const at = agents.list.findIndex((a) => a.name === info.name);
  if (at >= 0) agents.list[at] = info;
}

export const signIns = new SignIns();
