// What agents changed on disk in one conversation (ChangesService.Changes), kept live from
// `changes:changed` (new records and reverted ones; `removed` ids, merged into others, dropped),
// and reverting them (ChangesService.Revert, or one hunk: RevertHunk).
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
  revertHunk(channel: string, changeId: string, hunk: number): Promise<FileChange>;
  onChanged(callback: (event: ChangesChanged) => void): () => void;
}

const bindings: ChangesBackend = {
  changes: (channel) => ChangesService.Changes(channel),
  revert: (channel, ids) => ChangesService.Revert(channel, ids),
  revertHunk: (channel, id, hunk) => ChangesService.RevertHunk(channel, id, hunk),
  onChanged: (callback) => On("changes:changed", callback),
};

/** One answer's changes, for the panel: oldest change first. */
export interface AnswerChanges {
  messageId: string;
  agents: string[];
  createdAt: string;
  changes: FileChange[];
}

/** The key a refusal is kept under: one change, one hunk of it, or a whole answer. */
export const answerKey = (messageId: string): string => `answer:${messageId}`;
export const hunkKey = (changeId: string, hunk: number): string => `hunk:${changeId}:${hunk}`;

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
  #early: ChangesChanged[] | null = [];

  constructor(channel: string, backend: ChangesBackend = bindings) {
    this.channel = channel;
    this.#backend = backend;
  }

  /** Follows the events, then loads; what arrives meanwhile is applied over the loaded list. */
  async open(): Promise<void> {
    this.#off = this.#backend.onChanged((event) => {
      if (event.channel !== this.channel) return;
      if (this.#early) this.#early.push(event);
      else this.#apply(event);
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
    for (const event of early) this.#apply(event);
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

  /** Reverts what an answer changed that is still in place (and still revertible). */
  revertAnswer(messageId: string): Promise<boolean> {
    const ids = this.ofMessage(messageId)
      .filter((c) => !c.reverted && c.revertible)
      .map((c) => c.id);
    return this.#revert(answerKey(messageId), ids);
  }

  /** Reverts one hunk of a text change (its `hunk`-th "@@", from 0); the record comes back with
   *  what is left of the change. Refused, the sentence is kept under the change's id, as a
   *  revert's. */
  revertHunk(change: FileChange, hunk: number): Promise<boolean> {
    return this.#run(hunkKey(change.id, hunk), change.id, async () => [
      await this.#backend.revertHunk(this.channel, change.id, hunk),
    ]);
  }

  /** Records made elsewhere (a restore's) join the list. */
  add(changes: readonly FileChange[]): void {
    this.#merge(changes);
  }

  #revert(key: string, ids: string[]): Promise<boolean> {
    if (ids.length === 0) return Promise.resolve(false);
    return this.#run(key, key, () => this.#backend.revert(this.channel, ids));
  }

  /** One call at a time per `key` (what is busy); its refusal kept under `refusalKey`. */
  async #run(key: string, refusalKey: string, call: () => Promise<FileChange[]>): Promise<boolean> {
    if (this.reverting.has(key)) return false;
    this.reverting = new Set([...this.reverting, key]);
    const { [refusalKey]: _previous, ...others } = this.refusals;
    this.refusals = others;
    try {
      this.#merge(await call());
      return true;
    } catch (err) {
      this.refusals = { ...this.refusals, [refusalKey]: messageOf(err) };
      return false;
    } finally {
      const still = new Set(this.reverting);
      still.delete(key);
      this.reverting = still;
    }
  }

  /** An event's records merged, and those it removed (merged into others) dropped. */
  #apply(event: ChangesChanged): void {
    if (event.removed?.length) {
      const gone = new Set(event.removed);
      this.list = this.list.filter((c) => !gone.has(c.id));
    }
    this.#merge(event.changes);
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
