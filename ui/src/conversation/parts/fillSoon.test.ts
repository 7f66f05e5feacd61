// fillSoon's order: the texts asked for in one go are built last asked first within a frame's
// budget, the rest wait for an idle moment; fillWithin builds a revealed message's texts at once;
// the lists hear of each batch built in the task that built it (onFilled), and before its first
// text is built (onFilling).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FRAME_BUDGET, fillSoon, fillWithin, onFilled, onFilling } from "./fillSoon";

interface FakeNode {
  dataset: Record<string, string>;
  parent: FakeNode | null;
  closest: () => null;
  contains: (other: FakeNode) => boolean;
}

function node(parent: FakeNode | null = null): FakeNode {
  const made: FakeNode = {
    dataset: {},
    parent,
    closest: () => null,
    contains: (other) => {
      for (let n: FakeNode | null = other; n; n = n.parent) if (n === made) return true;
      return false;
    },
  };
  return made;
}

let clock = 0;
const idle: (() => void)[] = [];

beforeEach(() => {
  clock = 0;
  idle.length = 0;
  vi.spyOn(performance, "now").mockImplementation(() => clock);
  vi.stubGlobal("window", { setTimeout: (run: () => void) => idle.push(run) });
});
afterEach(() => {
  while (idle.length) idle.shift()?.(); // nothing left queued for the next test
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A text whose building costs more than a frame's budget: one per batch, the rest wait. */
function costly(built: string[], name: string): () => void {
  return () => {
    clock += FRAME_BUDGET + 1;
    built.push(name);
  };
}

const microtasks = (): Promise<void> => new Promise((r) => queueMicrotask(r));

describe("fillSoon", () => {
  it("builds the last asked first, the rest at an idle moment", async () => {
    const built: string[] = [];
    const nodes = ["top", "middle", "bottom"].map((name) => {
      const n = node();
      fillSoon(n as unknown as HTMLElement, costly(built, name));
      return n;
    });
    expect(nodes.every((n) => "filling" in n.dataset)).toBe(true);
    await microtasks();
    expect(built).toEqual(["bottom"]);
    expect(idle).toHaveLength(1);
    while (idle.length) idle.shift()?.();
    expect(new Set(built)).toEqual(new Set(["top", "middle", "bottom"]));
    expect(nodes.some((n) => "filling" in n.dataset)).toBe(false);
  });

  it("builds a revealed message's texts at once, and each text once", async () => {
    const built: string[] = [];
    const revealed = node();
    const inside = node(revealed);
    fillSoon(inside as unknown as HTMLElement, costly(built, "revealed"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "other"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "bottom"));
    await microtasks();
    expect(built).toEqual(["bottom"]); // the budget went to the bottom of the list
    fillWithin(revealed as unknown as HTMLElement);
    expect(built).toEqual(["bottom", "revealed"]);
    expect("filling" in inside.dataset).toBe(false);
    while (idle.length) idle.shift()?.();
    expect(built).toEqual(["bottom", "revealed", "other"]);
  });

  it("tells its listeners after each batch, in the task that built it, and only then", async () => {
    const built: string[] = [];
    const heard: string[][] = [];
    const stop = onFilled(() => heard.push([...built]));
    const revealed = node();
    fillSoon(node(revealed) as unknown as HTMLElement, costly(built, "revealed"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "middle"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "bottom"));
    expect(heard).toEqual([]); // nothing built yet
    await microtasks();
    expect(heard).toEqual([["bottom"]]);
    fillWithin(revealed as unknown as HTMLElement);
    expect(heard).toEqual([["bottom"], ["bottom", "revealed"]]);
    fillWithin(revealed as unknown as HTMLElement); // nothing left to build there: no news
    expect(heard).toHaveLength(2);
    idle.shift()?.(); // the idle moment (as a task when it waited too long)
    expect(heard.at(-1)).toEqual(["bottom", "revealed", "middle"]);
    stop();
    fillSoon(node() as unknown as HTMLElement, costly(built, "later"));
    await microtasks();
    expect(heard).toHaveLength(3); // stopped: not told any more
  });

  it("tells its listeners before each batch's first text, once, and not for an empty one", async () => {
    const built: string[] = [];
    const before: string[][] = [];
    const stop = onFilling(() => before.push([...built]));
    const revealed = node();
    fillSoon(node(revealed) as unknown as HTMLElement, costly(built, "revealed"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "middle"));
    fillSoon(node() as unknown as HTMLElement, costly(built, "bottom"));
    await microtasks();
    expect(before).toEqual([[]]); // before "bottom", the batch's first (and only, in its budget)
    fillWithin(revealed as unknown as HTMLElement);
    expect(before).toEqual([[], ["bottom"]]);
    fillWithin(revealed as unknown as HTMLElement); // nothing to build: not told
    expect(before).toHaveLength(2);
    idle.shift()?.();
    expect(before.at(-1)).toEqual(["bottom", "revealed"]); // before "middle"
    stop();
  });
});
