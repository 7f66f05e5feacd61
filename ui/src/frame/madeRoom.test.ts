// Issue 29: the toast and the conversation's line say why an agent stopped, in the same words.
import { describe, expect, it } from "vitest";
import type { Message } from "../../bindings";
import { madeRoomText, systemText } from "../conversation/format";

describe("made-room words", () => {
  it("names both agents and the limit, a limit of one in words", () => {
    expect(madeRoomText("demo", "other", 2)).toBe(
      "@demo was stopped to make room for @other (at most 2 agents run at once)",
    );
    expect(madeRoomText("demo", "other", 1)).toBe("@demo was stopped to make room for @other (one agent runs at a time)");
  });

  it("is what the conversation's system line says", () => {
    const line = { role: "system", code: "made-room", agent: "demo", madeRoom: { forAgent: "other", limit: 3 } };
    expect(systemText(line as Message)).toBe(madeRoomText("demo", "other", 3));
  });
});
