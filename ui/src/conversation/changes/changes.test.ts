// The Changes state against a fake backend: answers and events arrive when the test says.

import { describe, expect, it, vi } from "vitest";
import type { ChangesChanged, FileChange } from "../../../bindings";

vi.mock("../../../bindings", () => ({ ChangesService: {}, On: () => () => undefined }));

const { ChangesState, answerKey, hunkKey } = await import("./changes.svelte");

function change(id: string, messageId: string, path: string, extra: Partial<FileChange> = {}): FileChange {
  return {
    id,
    channel: "c1",
    messageId,
    agent: "worker",
    path,
    newFile: false,
    reverted: false,
    createdAt: `2026-12-01T04:00:0${id.slice(-1)}.000Z`,
    diff: "",
    additions: 1,
    deletions: 0,
    conflictWith: "",
    throughLink: "",
    route: "fs",
    status: "modified",
    oldPath: "",
    binary: false,
    during: [],
    folder: "/w",
    checkpoint: messageId,
    revertible: true,
    ...extra,
  };
}

class FakeBackend {
  listeners = new Set<(event: ChangesChanged) => void>();
  answerChanges!: (changes: FileChange[]) => void;
  revertCalls: string[][] = [];
  revertResult: () => Promise<FileChange[]> = async () => [];
  hunkCalls: [string, number][] = [];
  hunkResult: () => Promise<FileChange> = async () => {
    throw new Error("not expected");
  };

  changes(): Promise<FileChange[]> {
    return new Promise((resolve) => (this.answerChanges = resolve));
  }
  revert(_channel: string, ids: string[]): Promise<FileChange[]> {
    this.revertCalls.push(ids);
    return this.revertResult();
  }
  revertHunk(_channel: string, id: string, hunk: number): Promise<FileChange> {
    this.hunkCalls.push([id, hunk]);
    return this.hunkResult();
  }
  onChanged(callback: (event: ChangesChanged) => void): () => void {
    this.listeners.add(callback);
    return () => this.listeners.delete(callback);
  }
  emit(changes: FileChange[], channel = "c1", removed: string[] = []): void {
    for (const listener of this.listeners) listener({ channel, changes, removed });
  }
}

async function opened(initial: FileChange[]): Promise<{ backend: FakeBackend; state: InstanceType<typeof ChangesState> }> {
  const backend = new FakeBackend();
  const state = new ChangesState("c1", backend);
  const opening = state.open();
  backend.answerChanges(initial);
  await opening;
  return { backend, state };
}

describe("ChangesState", () => {
  it("applies the changes announced while the list loads over the loaded list", async () => {
    const backend = new FakeBackend();
    const state = new ChangesState("c1", backend);
    const opening = state.open();
    backend.emit([change("x2", "m1", "/w/b", { reverted: true })]);
    backend.emit([change("x9", "m9", "/w/z")], "another channel");
    backend.answerChanges([change("x1", "m1", "/w/a"), change("x2", "m1", "/w/b")]);
    await opening;
    expect(state.list.map((c) => [c.id, c.reverted])).toEqual([
      ["x1", false],
      ["x2", true],
    ]);
    expect(state.loaded).toBe(true);
    backend.emit([change("x3", "m2", "/w/a")]);
    expect(state.list.map((c) => c.id)).toEqual(["x1", "x2", "x3"]);
    state.dispose();
    expect(backend.listeners.size).toBe(0);
  });

  it("groups the changes by answer, the newest answer first, and counts the files still changed", async () => {
    const { state } = await opened([
      change("x1", "m1", "/w/a"),
      change("x2", "m1", "/w/b", { agent: "other" }),
      change("x3", "m2", "/w/a"),
      change("x4", "m2", "/w/c", { reverted: true }),
    ]);
    const answers = state.answers();
    expect(answers.map((a) => [a.messageId, a.agents, a.changes.length])).toEqual([
      ["m2", ["worker"], 2],
      ["m1", ["worker", "other"], 2],
    ]);
    expect(state.answers("m1").map((a) => a.messageId)).toEqual(["m1"]);
    expect(state.activeFiles).toBe(2); // /w/a and /w/b; /w/c was reverted
  });

  it("reverts the changes of an answer still in place, and marks them with the records it gets back", async () => {
    const { backend, state } = await opened([
      change("x1", "m1", "/w/a"),
      change("x2", "m1", "/w/b", { reverted: true }),
      change("x3", "m1", "/w/c"),
    ]);
    backend.revertResult = async () => [
      change("x1", "m1", "/w/a", { reverted: true }),
      change("x3", "m1", "/w/c", { reverted: true }),
    ];
    expect(await state.revertAnswer("m1")).toBe(true);
    expect(backend.revertCalls).toEqual([["x1", "x3"]]);
    expect(state.list.every((c) => c.reverted)).toBe(true);
    expect(await state.revertAnswer("m1")).toBe(false); // nothing left to revert: not asked
    expect(backend.revertCalls).toHaveLength(1);
  });

  it("keeps a refusal's sentence by what was asked, and forgets it on the next try", async () => {
    const { backend, state } = await opened([change("x1", "m1", "/w/a")]);
    backend.revertResult = async () => {
      throw new Error("/w/a changed since worker wrote it: nothing was reverted");
    };
    const target = state.list[0]!;
    expect(await state.revertOne(target)).toBe(false);
    expect(state.refusals).toEqual({ x1: "/w/a changed since worker wrote it: nothing was reverted" });
    expect(state.list[0]?.reverted).toBe(false);
    expect(await state.revertAnswer("m1")).toBe(false);
    expect(state.refusals[answerKey("m1")]).toContain("nothing was reverted");
    backend.revertResult = async () => [change("x1", "m1", "/w/a", { reverted: true })];
    expect(await state.revertOne(target)).toBe(true);
    expect(state.refusals["x1"]).toBeUndefined();
    expect(state.reverting.size).toBe(0);
  });

  it("opens the panel on all changes or on one answer's", async () => {
    const { state } = await opened([]);
    state.show("m1");
    expect(state.panel).toEqual({ open: true, messageId: "m1" });
    state.hide();
    expect(state.panel.open).toBe(false);
    state.show();
    expect(state.panel).toEqual({ open: true, messageId: "" });
  });

  it("says why the list could not be loaded", async () => {
    const backend = new FakeBackend();
    backend.changes = () => Promise.reject(new Error("no such channel"));
    const state = new ChangesState("c1", backend);
    await state.open();
    expect(state.loadError).toBe("No such channel"); // shown as a sentence
    expect(state.loaded).toBe(true);
  });

  it("drops the records an event says were removed, also when it came while the list loaded", async () => {
    const backend = new FakeBackend();
    const state = new ChangesState("c1", backend);
    const opening = state.open();
    // The fs record x1 merged into the answer's snapshot record x3.
    backend.emit([change("x3", "m1", "/w/a", { route: "agent" })], "c1", ["x1"]);
    backend.answerChanges([change("x1", "m1", "/w/a"), change("x2", "m1", "/w/b")]);
    await opening;
    expect(state.list.map((c) => c.id)).toEqual(["x2", "x3"]);
    backend.emit([], "c1", ["x2"]);
    expect(state.list.map((c) => c.id)).toEqual(["x3"]);
    backend.emit([], "another channel", ["x3"]);
    expect(state.list.map((c) => c.id)).toEqual(["x3"]);
  });

  it("reverts one hunk: the record it gets back replaces the old one; a refusal is kept under the change", async () => {
    const { backend, state } = await opened([change("x1", "m1", "/w/a", { additions: 2 })]);
    const target = state.list[0]!;
    backend.hunkResult = async () => change("x1", "m1", "/w/a", { additions: 1 });
    expect(await state.revertHunk(target, 1)).toBe(true);
    expect(backend.hunkCalls).toEqual([["x1", 1]]);
    expect(state.list).toHaveLength(1);
    expect(state.list[0]?.additions).toBe(1);
    backend.hunkResult = async () => {
      throw new Error("/w/a changed since worker wrote it: nothing was reverted");
    };
    let busy = false;
    const refused = state.revertHunk(state.list[0]!, 0);
    busy = state.reverting.has(hunkKey("x1", 0));
    expect(await refused).toBe(false);
    expect(busy).toBe(true);
    expect(state.reverting.size).toBe(0);
    expect(state.refusals["x1"]).toBe("/w/a changed since worker wrote it: nothing was reverted");
  });

  it("leaves out of an answer's revert the records whose checkpoint was cleared", async () => {
    const { backend, state } = await opened([
      change("x1", "m1", "/w/a", { revertible: false }),
      change("x2", "m1", "/w/b"),
    ]);
    backend.revertResult = async () => [change("x2", "m1", "/w/b", { reverted: true })];
    expect(await state.revertAnswer("m1")).toBe(true);
    expect(backend.revertCalls).toEqual([["x2"]]);
  });

  it("adds records made elsewhere (a restore's) in their place by date", async () => {
    const { state } = await opened([change("x1", "m1", "/w/a"), change("x3", "m3", "/w/c")]);
    state.add([change("x2", "n1", "/w/a", { route: "restore", agent: "you" })]);
    expect(state.list.map((c) => c.id)).toEqual(["x1", "x2", "x3"]);
  });
});
