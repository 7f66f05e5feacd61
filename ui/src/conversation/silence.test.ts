import { describe, expect, it } from "vitest";
import { silence, SILENT_NOTE_MS, SILENT_WARN_MS } from "./silence";

describe("the turn line about a silent agent", () => {
  it("says nothing while the agent was heard in the last seconds", () => {
    expect(silence(SILENT_NOTE_MS - 1, false, false)).toEqual({ kind: "none" });
  });
  it("says when it was last heard after ten seconds", () => {
    expect(silence(12_400, false, false)).toEqual({ kind: "note", seconds: 12 });
  });
  it("says it may be stuck after a minute", () => {
    expect(silence(SILENT_WARN_MS + 5_000, false, false)).toEqual({ kind: "stuck", seconds: 65 });
  });
  it("does not count waiting for the person or for another channel as silence", () => {
    expect(silence(SILENT_WARN_MS * 2, true, false)).toEqual({ kind: "none" });
    expect(silence(SILENT_WARN_MS * 2, false, true)).toEqual({ kind: "none" });
  });
});
