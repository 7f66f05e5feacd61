// The Checkpoints state against a fake backend: the restorable answers kept live, and the
// restore dialog's preview, refusal and restore.

import { describe, expect, it, vi } from "vitest";
import type { AnswerCheckpoint, CheckpointsChanged, FileChange, RestoreFile } from "../../../bindings";

vi.mock("../../../bindings", () => ({ CheckpointService: {}, On: () => () => undefined }));

const { CheckpointsState } = await import("./checkpoints.svelte");

function checkpoint(messageId: string, restorable = true): AnswerCheckpoint {
  return {
    messageId,
    agent: "worker",
    folders: ["/w"],
    startedAt: "2026-12-01T04:00:00.000Z",
    endedAt: "2026-12-01T04:00:05.000Z",
    restorable,
    skipped: [],
  };
}

function file(path: string, extra: Partial<RestoreFile> = {}): RestoreFile {
  return { path, folder: "/w", status: "modified", oldPath: "", binary: false, additions: 1, deletions: 1, skipped: "", ...extra };
}

class FakeBackend {
  listeners = new Set<(event: CheckpointsChanged) => void>();
  lists: AnswerCheckpoint[][] = [];
  loads = 0;
  previewResult: () => Promise<RestoreFile[]> = async () => [];
  restoreResult: () => Promise<FileChange[]> = async () => [];
  restoreCalls: string[] = [];

  async checkpoints(): Promise<AnswerCheckpoint[]> {
    this.loads += 1;
    return this.lists.shift() ?? [];
  }
  preview(): Promise<RestoreFile[]> {
    return this.previewResult();
  }
  restore(_channel: string, messageId: string): Promise<FileChange[]> {
    this.restoreCalls.push(messageId);
    return this.restoreResult();
  }
  onChanged(callback: (event: CheckpointsChanged) => void): () => void {
    this.listeners.add(callback);
    return () => this.listeners.delete(callback);
  }
  emit(channel: string): void {
    for (const listener of this.listeners) listener({ channel });
  }
}

const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe("CheckpointsState", () => {
  it("knows which answers can be restored to, and loads again on its channel's event or a clear", async () => {
    const backend = new FakeBackend();
    backend.lists = [[checkpoint("m1"), checkpoint("m2", false)], [checkpoint("m1", false)], []];
    const state = new CheckpointsState("c1", backend);
    await state.open();
    expect(state.restorable("m1")).toBe(true);
    expect(state.restorable("m2")).toBe(false); // cleared, or still running
    expect(state.restorable("m3")).toBe(false);
    backend.emit("another channel");
    await settled();
    expect(backend.loads).toBe(1);
    backend.emit("c1");
    await settled();
    expect(state.restorable("m1")).toBe(false);
    backend.emit(""); // checkpoints cleared: any channel's
    await settled();
    expect(backend.loads).toBe(3);
    state.dispose();
    expect(backend.listeners.size).toBe(0);
  });

  it("opens the dialog on an answer with its preview, and restores: the records go on, the dialog closes", async () => {
    const backend = new FakeBackend();
    const restored: FileChange[][] = [];
    const state = new CheckpointsState("c1", backend, (changes) => restored.push(changes));
    backend.previewResult = async () => [file("/w/a"), file("/w/link", { skipped: "link" })];
    const asking = state.ask("m1", "worker");
    expect(state.dialog).toMatchObject({ messageId: "m1", agent: "worker", files: null });
    await asking;
    expect(state.dialog?.files?.map((f) => f.path)).toEqual(["/w/a", "/w/link"]);
    const record = { id: "r1" } as FileChange;
    backend.restoreResult = async () => [record];
    expect(await state.restore()).toBe(true);
    expect(backend.restoreCalls).toEqual(["m1"]);
    expect(restored).toEqual([[record]]);
    expect(state.dialog).toBeNull();
  });

  it("keeps the dialog open with the reason a restore or a preview was refused", async () => {
    const backend = new FakeBackend();
    const state = new CheckpointsState("c1", backend);
    backend.previewResult = async () => [file("/w/a")];
    await state.ask("m1", "worker");
    backend.restoreResult = async () => {
      throw new Error("an agent is answering in /w: try again when it is done");
    };
    expect(await state.restore()).toBe(false);
    expect(state.dialog?.error).toBe("An agent is answering in /w: try again when it is done");
    expect(state.dialog?.restoring).toBe(false);
    state.cancel();
    expect(state.dialog).toBeNull();

    backend.previewResult = async () => {
      throw new Error("no checkpoint of this answer");
    };
    await state.ask("m2", "worker");
    expect(state.dialog?.files).toEqual([]);
    expect(state.dialog?.error).toBe("No checkpoint of this answer");
    expect(await state.restore()).toBe(false); // nothing asked: a restore waits for a preview
  });
});
