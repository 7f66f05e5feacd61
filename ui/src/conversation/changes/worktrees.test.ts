// The worktrees state against a fake backend: the toggle's refusal kept as a sentence, a merge's
// conflicts chosen per hunk before the file is written, and Discard.

import { describe, expect, it, vi } from "vitest";
import type { MemberWorktree, MergeOutcome, WorktreeConflict } from "../../../bindings";
import type { WorktreesBackend } from "./worktrees.svelte";

vi.mock("../../../bindings", () => ({ WorktreeService: {} }));

const { WorktreesState } = await import("./worktrees.svelte");

function member(extra: Partial<MemberWorktree> = {}): MemberWorktree {
  return {
    agent: "bob", isolated: false, configured: false, available: true, reason: "", folder: "/w",
    exists: false, path: "", branch: "sidekicks/c1/bob", base: "", files: [], ...extra,
  };  // prettier-ignore
}

const conflict: WorktreeConflict = {
  path: "a.txt", version: "v1", whole: false, binary: false, oursDeleted: false, theirsDeleted: false,
  hunks: [
    { index: 0, line: 2, base: "b\n", ours: "x\n", theirs: "y\n" },
    { index: 1, line: 8, base: "h\n", ours: "p\n", theirs: "q\n" },
  ],
};  // prettier-ignore

function backend(views: MemberWorktree[]): WorktreesBackend & { resolved: string[][] } {
  const resolved: string[][] = [];
  return {
    resolved,
    worktrees: async () => views,
    setIsolation: async () => {
      throw new Error("/w is not a Git repository: it cannot be isolated in a worktree");
    },
    merge: async (): Promise<MergeOutcome> => ({ agent: "bob", merged: ["b.txt"], unchanged: [], conflicts: [conflict] }),
    resolve: async (_c, _a, _p, _v, choices) => {
      resolved.push(choices);
      return { agent: "bob", merged: ["a.txt"], unchanged: [], conflicts: [] };
    },
    discard: async () => member(),
  };
}

describe("WorktreesState", () => {
  it("keeps a refused toggle's sentence for its member", async () => {
    const state = new WorktreesState("c1", backend([member()]));
    await state.setIsolation("bob", true);
    expect(state.errors.bob).toContain("not a Git repository");
    expect(state.of("bob")?.isolated).toBe(false);
  });

  it("writes a conflicting file only once every hunk has a choice", async () => {
    const fake = backend([member({ isolated: true, exists: true })]);
    const state = new WorktreesState("c1", fake);
    await state.load();
    expect(state.shown.map((m) => m.agent)).toEqual(["bob"]);
    await state.merge("bob");
    const [listed] = state.outcomes.bob!.conflicts;
    state.choose("bob", listed!, 1, "ours");
    expect(state.complete("bob", listed!)).toBe(false);
    state.choose("bob", listed!, 0, "theirs");
    expect(state.complete("bob", listed!)).toBe(true);
    await state.resolve("bob", listed!);
    expect(fake.resolved).toEqual([["theirs", "ours"]]);
    expect(state.outcomes.bob!.conflicts).toEqual([]);
    expect(state.outcomes.bob!.merged).toEqual(["b.txt", "a.txt"]);
  });

  it("shares one read between the chips asking at once", async () => {
    const fake = backend([member()]);
    const read = vi.spyOn(fake, "worktrees");
    const state = new WorktreesState("c1", fake);
    await Promise.all([state.load(), state.load(), state.load()]);
    expect(read).toHaveBeenCalledTimes(1);
    expect(state.of("bob")?.agent).toBe("bob");
  });

  it("forgets the outcome once discarded", async () => {
    const state = new WorktreesState("c1", backend([member({ isolated: true, exists: true })]));
    await state.merge("bob");
    await state.discard("bob");
    expect(state.outcomes.bob).toBeUndefined();
  });
});
