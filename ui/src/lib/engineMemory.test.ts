import { afterEach, describe, expect, it, vi } from "vitest";

// The module reads the engine's `gc` as it loads: each case loads it anew after setting one.
async function loaded(gc: unknown): Promise<typeof import("./engineMemory")> {
  vi.resetModules();
  vi.stubGlobal("gc", gc);
  return import("./engineMemory");
}

afterEach(() => vi.unstubAllGlobals());

describe("releaseStartUpMemory", () => {
  it("asks the engine for one memory-reducing collection, the first time only", async () => {
    const calls: unknown[] = [];
    const { releaseStartUpMemory } = await loaded((options: unknown) => calls.push(options));
    expect(releaseStartUpMemory()).toBe(true);
    expect(releaseStartUpMemory()).toBe(false);
    expect(calls).toEqual([{ type: "major", execution: "sync", flavor: "last-resort" }]);
  });

  it("does nothing where the engine exposes no gc", async () => {
    const { releaseStartUpMemory } = await loaded(undefined);
    expect(releaseStartUpMemory()).toBe(false);
  });

  it("takes an engine refusing the options for no collection", async () => {
    const { releaseStartUpMemory } = await loaded(() => {
      throw new TypeError("options not understood");
    });
    expect(releaseStartUpMemory()).toBe(false);
    expect(releaseStartUpMemory()).toBe(false); // asked once, as a working one would be
  });
});
