import { describe, expect, it, vi } from "vitest";

vi.mock("../../../bindings", () => ({ On: () => () => undefined }));

const { LiveTerminals, MAX_ENDED, TAIL_CHARS } = await import("./liveTerminals.svelte");

type Handler = (payload: unknown) => void;

function store(): { live: InstanceType<typeof LiveTerminals>; emit: (name: string, payload: unknown) => void } {
  const handlers = new Map<string, Handler>();
  const live = new LiveTerminals();
  live.follow(((name: string, callback: Handler) => {
    handlers.set(name, callback);
    return () => handlers.delete(name);
  }) as never);
  return { live, emit: (name, payload) => handlers.get(name)?.(payload) };
}

const base = { channel: "c1", agent: "w", messageId: "m1" };

describe("LiveTerminals", () => {
  it("keeps what a terminal printed for a card that opens later, and hands new output to a card shown", () => {
    const { live, emit } = store();
    emit("terminal:output", { ...base, terminal: "t1", data: "\x1b[32mok\x1b[0m\n" });
    expect(live.seen("t1")).toEqual({ tail: "\x1b[32mok\x1b[0m\n", seen: 12 });
    const got: string[] = [];
    const off = live.listen("t1", { output: (data) => got.push(data) });
    emit("terminal:output", { ...base, terminal: "t1", data: "more" });
    emit("terminal:output", { ...base, terminal: "t2", data: "other" });
    off();
    emit("terminal:output", { ...base, terminal: "t1", data: "after" });
    expect(got).toEqual(["more"]);
    expect(live.seen("t1").tail.endsWith("moreafter")).toBe(true);
  });

  it("keeps only the tail of a long output", () => {
    const { live, emit } = store();
    const line = "y".repeat(99) + "\n";
    for (let i = 0; i < 4000; i++) emit("terminal:output", { ...base, terminal: "big", data: line });
    const seen = live.seen("big");
    expect(seen.seen).toBe(400_000);
    expect(seen.tail.length).toBeLessThanOrEqual(2 * TAIL_CHARS);
    expect(seen.tail.startsWith("y")).toBe(true);
  });

  it("says how a command ended, and forgets the oldest ended ones no card shows", () => {
    const { live, emit } = store();
    const off = live.listen("t0", { output: () => undefined });
    for (let i = 0; i <= MAX_ENDED + 1; i++) {
      emit("terminal:output", { ...base, terminal: `t${i}`, data: "x" });
      emit("terminal:exited", { ...base, terminal: `t${i}`, exitCode: i, signal: null });
    }
    expect(live.exits["t0"]).toEqual({ exitCode: 0, signal: null }); // shown: kept
    expect(live.exits["t1"]).toBeUndefined();
    expect(live.seen("t1").seen).toBe(0);
    expect(live.exits[`t${MAX_ENDED + 1}`]).toEqual({ exitCode: MAX_ENDED + 1, signal: null });
    off();
  });

  it("leaves nothing behind for a terminal of a stored message that never printed", () => {
    const { live } = store();
    const off = live.listen("old", { output: () => undefined });
    off();
    expect(live.seen("old")).toEqual({ tail: "", seen: 0 });
  });
});
