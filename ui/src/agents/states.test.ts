import { describe, expect, it } from "vitest";
import { splitError } from "./states";

describe("an agent's failure on its card", () => {
  it("reads as a sentence, its stderr lines kept as they are", () => {
    expect(splitError("the agent stopped by itself (exit code 4)\nfake agent ready: []")).toEqual({
      reason: "The agent stopped by itself (exit code 4)",
      tail: "fake agent ready: []",
    });
  });

  it("keeps a reason that starts with a path", () => {
    expect(splitError("/usr/bin/x: not found").reason).toBe("/usr/bin/x: not found");
  });
});
