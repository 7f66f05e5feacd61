import { describe, expect, it } from "vitest";
import type { AttentionCounts } from "../../bindings";
import { ViewingReporter } from "./viewing.svelte";

const COUNTS: AttentionCounts = { unread: {}, permissions: 0, total: 0 };

describe("telling the backend what is on screen", () => {
  it("sends one call at a time, then only the newest state that waited", async () => {
    const calls: [string, boolean][] = [];
    const pending: (() => void)[] = [];
    const reporter = new ViewingReporter(
      () => undefined,
      (id, focused) => {
        calls.push([id, focused]);
        return new Promise((resolve) => pending.push(() => resolve(COUNTS)));
      },
    );
    reporter.report({ id: "a", focused: true });
    reporter.report({ id: "a", focused: false });
    reporter.report({ id: "b", focused: true });
    expect(calls).toEqual([["a", true]]);
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([
      ["a", true],
      ["b", true],
    ]);
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(reporter.reported).toEqual({ id: "b", focused: true });
  });

  it("goes on after a call that failed", async () => {
    let fail = true;
    const reporter = new ViewingReporter(
      () => undefined,
      async () => {
        if (fail) throw new Error("no");
        return COUNTS;
      },
    );
    reporter.report({ id: "a", focused: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(reporter.reported).toBeNull();
    fail = false;
    reporter.report({ id: "a", focused: false });
    await new Promise((r) => setTimeout(r, 0));
    expect(reporter.reported).toEqual({ id: "a", focused: false });
  });
});
