import { describe, expect, it } from "vitest";
import type { Message } from "../../bindings";
import { LATEST_KEPT, LatestMessages, mergeLatest } from "./latest";

function message(id: string, text = id, queued = false): Message {
  return {
    id,
    channel: "c",
    createdAt: "2026-12-01T06:00:00Z",
    role: "user",
    agent: "",
    parts: [{ kind: "text", text, tool: null, plan: null, messageId: "", planId: "", planUri: "", removed: false, compaction: null, subagent: null }],
    done: true,
    queued,
    stopReason: null,
    error: "",
    errorDetails: "",
    code: null,
    attachments: [],
    dropped: [],
    handoff: null,
    madeRoom: null,
  };
}

const ids = (list: readonly Message[] | null): string[] | undefined => list?.map((m) => m.id);

describe("mergeLatest", () => {
  it("appends the latest messages that came after the last one loaded", () => {
    const loaded = [message("a"), message("b"), message("c")];
    const latest = [message("b"), message("c"), message("d"), message("e")];
    expect(ids(mergeLatest(loaded, latest))).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("takes the latest version of a message loaded earlier (an answer that finished since)", () => {
    const loaded = [message("a"), message("b", "partial")];
    const merged = mergeLatest(loaded, [message("b", "finished")]);
    expect(merged?.[1]?.parts[0]?.text).toBe("finished");
  });

  it("changes nothing when nothing came since", () => {
    const loaded = [message("a"), message("b")];
    expect(ids(mergeLatest(loaded, []))).toEqual(["a", "b"]);
    expect(ids(mergeLatest(loaded, [message("a")]))).toEqual(["a", "b"]);
  });

  it("says when the latest messages do not follow the loaded ones (a gap)", () => {
    expect(mergeLatest([message("a")], [message("x"), message("y")])).toBeNull();
  });

  it("gives the latest when nothing is loaded", () => {
    expect(ids(mergeLatest([], [message("x")]))).toEqual(["x"]);
  });
});

describe("LatestMessages", () => {
  it("replaces a message heard again and appends a new one, never a queued one", () => {
    const latest = new LatestMessages();
    latest.reset([message("a"), message("q", "q", true)], false);
    latest.upsert(message("a", "edited"));
    latest.upsert(message("b"));
    latest.upsert(message("q2", "q2", true));
    expect(ids(latest.messages)).toEqual(["a", "b"]);
    expect(latest.messages[0]?.parts[0]?.text).toBe("edited");
  });

  it("keeps the last page only, and then says older ones exist", () => {
    const latest = new LatestMessages();
    latest.reset([], false);
    for (let i = 0; i <= LATEST_KEPT; i++) latest.upsert(message(`m${i}`));
    expect(latest.messages).toHaveLength(LATEST_KEPT);
    expect(latest.messages[0]?.id).toBe("m1");
    expect(latest.more).toBe(true);
  });

  it("updates a kept message in place", () => {
    const latest = new LatestMessages();
    latest.reset([message("a")], true);
    latest.update("a", (m) => ({ ...m, done: false }));
    latest.update("unknown", () => message("never"));
    expect(latest.messages).toHaveLength(1);
    expect(latest.messages[0]?.done).toBe(false);
    expect(latest.more).toBe(true);
  });
});
