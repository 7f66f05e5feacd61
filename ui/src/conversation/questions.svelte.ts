// The agents' questions (elicitation, issue 26) waiting for the person, in every channel, oldest
// first: loaded once, then kept live from events (elicitation:requested / elicitation:resolved),
// so a question answered in its conversation leaves the inbox and one answered in the inbox
// leaves the conversation. A conversation shows those of each answer (`forMessage`).

import { ChannelService, InboxService, On, type ElicitationRequested } from "../../bindings";
import { messageOf } from "../lib/errors";
import type { Content } from "./elicitationForm";

export type Action = "accept" | "decline" | "cancel";

class Questions {
  list = $state.raw<ElicitationRequested[]>([]);
  loadError = $state("");

  #loading = false;
  #arrived: ElicitationRequested[] = [];
  #resolved = new Set<string>();

  async load(): Promise<void> {
    this.#loading = true;
    this.#arrived = [];
    this.#resolved.clear();
    try {
      const loaded = await InboxService.Elicitations();
      const known = new Set(loaded.map((q) => q.id));
      const added = this.#arrived.filter((q) => !known.has(q.id));
      this.list = [...loaded, ...added].filter((q) => !this.#resolved.has(q.id));
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    } finally {
      this.#loading = false;
    }
  }

  forMessage(messageId: string): ElicitationRequested[] {
    return this.list.filter((q) => q.messageId === messageId);
  }

  /** Answers a question; it leaves the lists at once (its `elicitation:resolved` may come later). */
  async answer(question: ElicitationRequested, action: Action, content?: Content): Promise<void> {
    await ChannelService.AnswerElicitation(question.id, action, content);
    this.#forget(question.id);
  }

  follow(): () => void {
    void this.load();
    const offs = [
      On("elicitation:requested", (question) => {
        if (this.#loading) this.#arrived.push(question);
        if (this.list.some((q) => q.id === question.id)) return;
        this.list = [...this.list, question];
      }),
      On("elicitation:resolved", ({ id }) => this.#forget(id)),
      On("channels:changed", ({ channels }) => {
        const ids = new Set(channels.map((c) => c.id));
        if (this.list.some((q) => !ids.has(q.channel))) this.list = this.list.filter((q) => ids.has(q.channel));
      }),
      On("config:changed", () => void this.load()),
    ];
    return () => offs.forEach((off) => off());
  }

  #forget(id: string): void {
    if (this.#loading) this.#resolved.add(id);
    if (this.list.some((q) => q.id === id)) this.list = this.list.filter((q) => q.id !== id);
  }
}

export const questions = new Questions();
// Registered once for the page's life, like inbox/inbox.svelte.ts.
questions.follow();
