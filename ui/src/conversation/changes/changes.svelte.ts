// What agents changed on disk in one conversation (ChangesService.Changes), kept live from
// `changes:changed` (new records and reverted ones), and reverting them (ChangesService.Revert).
// A revert is all or nothing on the backend: refused, it says why in a sentence, kept here by
// what was asked (one change, or a whole answer) until the next try. The Changes panel, the
// header's button and each answer's "N files changed" read the same instance (ConversationView
// makes one per conversation and shares it through context.ts). Tested in changes.test.ts.

import { ChangesService, On, type ChangesChanged, type FileChange } from "../../../bindings";
import { messageOf } from "../../lib/errors";

/** The backend calls this state uses (the bindings in the app, fakes in tests). */
export interface ChangesBackend {
  changes(channel: string): Promise<FileChange[]>;
  revert(channel: string, changeIds: string[]): Promise<FileChange[]>;
  onChanged(callback: (event: ChangesChanged) => void): () => void;
}

const bindings: ChangesBackend = {
  changes: (channel) => ChangesService.Changes(channel),
  revert: (channel, ids) => ChangesService.Revert(channel, ids),
  onChanged: (callback) => On("changes:changed", callback),
};

/** One answer's changes, for the panel: oldest change first. */
export interface AnswerChanges {
  messageId: string;
  agents: string[];
  createdAt: string;
  changes: FileChange[];
}

/** The key a refusal is kept under: one change, or a whole answer. */
export const answerKey = (messageId: string): string => `answer:${messageId}`;

export class ChangesState {
  readonly channel: string;
  /** Every change, oldest first. */
  list = $state.raw<FileChange[]>([]);
  loaded = $state(false);
  loadError = $state("");
  /** Why a revert was refused, by change id or answerKey(message). */
  refusals = $state.raw<Record<string, string>>({});
  /** Reverts under way, by the same keys. */
  reverting = $state.raw<ReadonlySet<string>>(new Set());
  /** The panel: shown or not, and the answer it is filtered to ("" for all). */
  panel = $state({ open: false, messageId: "" });

  #backend: ChangesBackend;
  #off: (() => void) | null = null;
  #early: FileChange[][] | null = [];

  constructor(channel: string, backend: ChangesBackend = bindings) {
    this.channel = channel;
    this.#backend = backend;
  }

  /** Follows the events, then loads; what arrives meanwhile is applied over the loaded list. */
  async open(): Promise<void> {
    this.#off = this.#backend.onChanged((event) => {
      if (event.channel !== this.channel) return;
      if (this.#early) this.#early.push(event.changes);
      else this.#merge(event.changes);
    });
    try {
      const changes = await this.#backend.changes(this.channel);
      this.list = [...changes];
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    }
    const early = this.#early ?? [];
    this.#early = null;
    for (const changes of early) this.#merge(changes);
    this.loaded = true;
  }

  dispose(): void {
    this.#off?.();
    this.#off = null;
  }

  /** The changes an answer made, oldest first. */
  ofMessage(messageId: string): FileChange[] {
    return this.list.filter((c) => c.messageId === messageId);
  }

  /** Files changed in the conversation whose change is still in place (not all reverted). */
  get activeFiles(): number {
    return new Set(this.list.filter((c) => !c.reverted).map((c) => c.path)).size;
  }

  /** The answers with changes, the newest first; only `messageId`'s when given. */
  answers(messageId = ""): AnswerChanges[] {
    const byMessage = new Map<string, AnswerChanges>();
    for (const change of this.list) {
      if (messageId && change.messageId !== messageId) continue;
      let answer = byMessage.get(change.messageId);
      if (!answer) {
        answer = { messageId: change.messageId, agents: [], createdAt: change.createdAt, changes: [] };
        byMessage.set(change.messageId, answer);
      }
      answer.changes.push(change);
      if (!answer.agents.includes(change.agent)) answer.agents.push(change.agent);
    }
    return [...byMessage.values()].reverse();
  }

  show(messageId = ""): void {
    this.panel = { open: true, messageId };
  }

  hide(): void {
    this.panel = { ...this.panel, open: false };
  }

  /** Reverts one change. */
  revertOne(change: FileChange): Promise<boolean> {
    return this.#revert(change.id, [change.id]);
  }

  /** Reverts what an answer changed that is still in place. */
  revertAnswer(messageId: string): Promise<boolean> {
    const ids = this.ofMessage(messageId)
      .filter((c) => !c.reverted)
      .map((c) => c.id);
    return this.#revert(answerKey(messageId), ids);
  }

  async #revert(key: string, ids: string[]): Promise<boolean> {
    if (ids.length === 0 || this.reverting.has(key)) return false;
    this.reverting = new Set([...this.reverting, key]);
    const { [key]: _previous, ...others } = this.refusals;
    this.refusals = others;
    try {
      this.#merge(await this.#backend.revert(this.channel, ids));
      return true;
    } catch (err) {
      this.refusals = { ...this.refusals, [key]: messageOf(err) };
      return false;
    } finally {
      const still = new Set(this.reverting);
      still.delete(key);
      this.reverting = still;
    }
  }

  /** New records are added (oldest first), known ones replaced. */
  #merge(changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    const next = [...this.list];
    for (const change of changes) {
      const at = next.findIndex((c) => c.id === change.id);
      if (at >= 0) next[at] = change;
      else next.push(change);
    }
    next.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    this.list = next;
  }
}
