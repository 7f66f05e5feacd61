// The isolated worktrees of one conversation's members (issue 28, WorktreeService): each
// member's isolation and its worktree's files against its base, the member chip's toggle
// (SetIsolation), and in the Changes panel Merge into the folder (the outcome kept per member:
// merged files, conflicts per file and hunk), the person's choice per hunk (ResolveConflict) and
// Discard. One instance per channel, shared by the header's chips and the panel (`worktreesOf`).
// Refusals are kept as sentences per member until the next try. Tested in worktrees.test.ts.

import {
  WorktreeService,
  type MemberWorktree,
  type MergeOutcome,
  type WorktreeConflict,
} from "../../../bindings";
import { messageOf } from "../../lib/errors";

export type HunkChoice = "theirs" | "ours" | "both";

/** The backend calls this state uses (the bindings in the app, fakes in tests). */
export interface WorktreesBackend {
  worktrees(channel: string): Promise<MemberWorktree[]>;
  setIsolation(channel: string, agent: string, on: boolean): Promise<MemberWorktree>;
  merge(channel: string, agent: string): Promise<MergeOutcome>;
  resolve(channel: string, agent: string, path: string, version: string, choices: string[]): Promise<MergeOutcome>;
  discard(channel: string, agent: string): Promise<MemberWorktree>;
}

const bindings: WorktreesBackend = {
  worktrees: (channel) => WorktreeService.Worktrees(channel),
  setIsolation: (channel, agent, on) => WorktreeService.SetIsolation(channel, agent, on),
  merge: (channel, agent) => WorktreeService.MergeWorktree(channel, agent),
  resolve: (channel, agent, path, version, choices) =>
    WorktreeService.ResolveConflict(channel, agent, path, version, choices),
  discard: (channel, agent) => WorktreeService.DiscardWorktree(channel, agent),
};

export class WorktreesState {
  readonly channel: string;
  members = $state.raw<MemberWorktree[]>([]);
  /** The last merge's outcome per member (its conflicts shrink as the person resolves them). */
  outcomes = $state.raw<Record<string, MergeOutcome>>({});
  /** The person's choices per member, file and hunk, before the file is written. */
  choices = $state.raw<Record<string, HunkChoice[]>>({});
  errors = $state.raw<Record<string, string>>({});
  busy = $state.raw<ReadonlySet<string>>(new Set());

  #backend: WorktreesBackend;
  #loading: Promise<void> | null = null;

  constructor(channel: string, backend: WorktreesBackend = bindings) {
    this.channel = channel;
    this.#backend = backend;
  }

  of(agent: string): MemberWorktree | undefined {
    return this.members.find((m) => m.agent === agent);
  }

  /** The members whose worktree the panel shows: isolated, or with a worktree left. */
  get shown(): MemberWorktree[] {
    return this.members.filter((m) => m.isolated || m.exists);
  }

  /** Reads the members' worktrees again; the chips asking at once share one read. */
  load(): Promise<void> {
    this.#loading ??= this.#read().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  async #read(): Promise<void> {
    try {
      this.members = await this.#backend.worktrees(this.channel);
    } catch {
      // A channel just deleted, or no history: nothing to show.
    }
  }

  async setIsolation(agent: string, on: boolean): Promise<void> {
    await this.#run(agent, async () => this.#put(await this.#backend.setIsolation(this.channel, agent, on)));
  }

  async merge(agent: string): Promise<void> {
    await this.#run(agent, async () => {
      const outcome = await this.#backend.merge(this.channel, agent);
      this.outcomes = { ...this.outcomes, [agent]: outcome };
      this.choices = Object.fromEntries(
        Object.entries(this.choices).filter(([key]) => !key.startsWith(`${agent}\n`)),
      );
    });
  }

  choose(agent: string, conflict: WorktreeConflict, hunk: number, choice: HunkChoice): void {
    const key = choiceKey(agent, conflict.path);
    const count = conflict.whole ? 1 : conflict.hunks.length;
    const picked = [...(this.choices[key] ?? Array<HunkChoice | undefined>(count).fill(undefined))];
    picked[hunk] = choice;
    this.choices = { ...this.choices, [key]: picked as HunkChoice[] };
  }

  chosen(agent: string, conflict: WorktreeConflict): (HunkChoice | undefined)[] {
    return this.choices[choiceKey(agent, conflict.path)] ?? [];
  }

  /** Whether every hunk of the file has a choice (then it can be written). */
  complete(agent: string, conflict: WorktreeConflict): boolean {
    const count = conflict.whole ? 1 : conflict.hunks.length;
    const picked = this.chosen(agent, conflict);
    return picked.length === count && picked.every((c) => c !== undefined);
  }

  async resolve(agent: string, conflict: WorktreeConflict): Promise<void> {
    const picked = this.chosen(agent, conflict) as HunkChoice[];
    await this.#run(agent, async () => {
      await this.#backend.resolve(this.channel, agent, conflict.path, conflict.version, picked);
      const outcome = this.outcomes[agent];
      if (outcome) {
        this.outcomes = {
          ...this.outcomes,
          [agent]: {
            ...outcome,
            merged: [...outcome.merged, conflict.path],
            conflicts: outcome.conflicts.filter((c) => c.path !== conflict.path),
          },
        };
      }
    });
  }

  async discard(agent: string): Promise<void> {
    await this.#run(agent, async () => {
      this.#put(await this.#backend.discard(this.channel, agent));
      const { [agent]: _gone, ...rest } = this.outcomes;
      this.outcomes = rest;
    });
  }

  #put(view: MemberWorktree): void {
    const known = this.members.some((m) => m.agent === view.agent);
    this.members = known ? this.members.map((m) => (m.agent === view.agent ? view : m)) : [...this.members, view];
  }

  async #run(agent: string, work: () => Promise<void>): Promise<void> {
    this.busy = new Set([...this.busy, agent]);
    const { [agent]: _old, ...errors } = this.errors;
    this.errors = errors;
    try {
      await work();
    } catch (err) {
      this.errors = { ...this.errors, [agent]: messageOf(err) };
    } finally {
      this.busy = new Set([...this.busy].filter((a) => a !== agent));
    }
    await this.#loading; // a read begun before the change would bring back the old state
    await this.load();
  }
}

function choiceKey(agent: string, path: string): string {
  return `${agent}\n${path}`;
}

const states = new Map<string, WorktreesState>();

/** The channel's one state (made on first use). */
export function worktreesOf(channel: string): WorktreesState {
  let state = states.get(channel);
  if (!state) {
    state = new WorktreesState(channel);
    states.set(channel, state);
  }
  return state;
}
