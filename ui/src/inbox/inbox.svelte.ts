// The permission inbox (issue 17): every pending permission request of every channel, oldest
// first, and the person's "always allow" rules — loaded once, then kept live from events
// (permission:requested / permission:resolved, permission-rules:changed), so a request answered
// in its conversation leaves the inbox and one answered here leaves the conversation.

import {
  ChannelService,
  InboxService,
  On,
  type PermissionRequested,
  type PermissionRule,
} from "../../bindings";
import { messageOf } from "../lib/errors";
import { mergeLoaded } from "./merge";

class Inbox {
  requests = $state.raw<PermissionRequested[]>([]);
  rules = $state.raw<PermissionRule[]>([]);
  loadError = $state("");

  // Events that arrive while Permissions() is on its way: applied to its answer, which may
  // predate them.
  #loading = false;
  #arrived: PermissionRequested[] = [];
  #resolved = new Set<string>();

  async load(): Promise<void> {
    this.#loading = true;
    this.#arrived = [];
    this.#resolved.clear();
    try {
      const [requests, rules] = await Promise.all([
        InboxService.Permissions(),
        InboxService.PermissionRules(),
      ]);
      this.requests = mergeLoaded(requests, this.#arrived, this.#resolved);
      this.rules = rules;
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    } finally {
      this.#loading = false;
    }
  }

  /** Answers a request; it leaves the list at once (its `permission:resolved` may come later). */
  async answer(request: PermissionRequested, optionId: string): Promise<void> {
    await ChannelService.AnswerPermission(request.id, optionId);
    this.#forget(request.id);
  }

  async revoke(rule: PermissionRule): Promise<void> {
    this.rules = await InboxService.RevokePermissionRule(rule.id);
  }

  follow(): () => void {
    void this.load();
    const offs = [
      On("permission:requested", (request) => {
        if (this.#loading) this.#arrived.push(request);
        if (this.requests.some((r) => r.id === request.id)) return;
        this.requests = [...this.requests, request];
      }),
      On("permission:resolved", ({ id }) => this.#forget(id)),
      On("permission-rules:changed", ({ rules }) => (this.rules = rules)),
      On("channels:changed", ({ channels }) => {
        // A deleted channel's requests were answered "cancelled" with it.
        const ids = new Set(channels.map((c) => c.id));
        if (this.requests.some((r) => !ids.has(r.channel))) {
          this.requests = this.requests.filter((r) => ids.has(r.channel));
        }
      }),
      // Another configuration opened: its history has its own rules and requests.
      On("config:changed", () => void this.load()),
    ];
    return () => offs.forEach((off) => off());
  }

  #forget(id: string): void {
    if (this.#loading) this.#resolved.add(id);
    if (this.requests.some((r) => r.id === id)) this.requests = this.requests.filter((r) => r.id !== id);
  }
}

export const inbox = new Inbox();
// Registered once for the page's life (like conversation/activity.svelte.ts): the sidebar's
// entry imports this module.
inbox.follow();
