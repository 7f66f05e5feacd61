// Sign-ins in progress and their outcome, per agent, shared by the agent's card and the
// conversation notice (a sign-in started on one shows on the other). A sign-in may wait minutes
// for a browser login: nothing here blocks the page, the person goes on meanwhile.
// Values typed for `env_var` methods pass through `signIn` to the backend and are kept nowhere.

import { SignInService, type AgentInfo } from "../../../bindings";
import { agents } from "../../lib/agents.svelte";
import { messageOf } from "../../lib/errors";

class SignIns {
  /** The method being signed in with, by agent. */
  pending = $state<Record<string, string>>({});
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
    const needed = agents.byName(agent)?.needsSignIn ?? false;
    this.pending[agent] = methodId;
    delete this.errors[agent];
    try {
      update(await SignInService.SignIn(agent, methodId, values));
      this.succeeded(agent, needed);
      return true;
    } catch (err) {
      this.errors[agent] = messageOf(err);
      return false;
    } finally {
      delete this.pending[agent];
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
  succeeded(agent: string, needed: boolean): void {
    delete this.errors[agent];
    if (needed) this.recovered[agent] = true;
  }

  /** "Send again" was used or dismissed. */
  forget(agent: string): void {
    delete this.recovered[agent];
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
