// The words of hand-offs (issue 28): the turn line's and the system messages'.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../bindings";
import { handoffText, systemText } from "../format";

function system(code: Message["code"], agent: string, to: string[], budget = 3): Message {
  return {
    id: "m",
    channel: "c",
    createdAt: "",
    role: "system",
    agent,
    parts: [],
    done: true,
    queued: false,
    stopReason: null,
    error: "",
    errorDetails: "",
    code,
    attachments: [],
    dropped: [],
    handoff: { fromAgent: agent, index: budget, budget, to },
    madeRoom: null,
  };
}

describe("hand-off words", () => {
  it("says whose hand-off it is and how far the chain went", () => {
    expect(handoffText("bob", { fromAgent: "alice", index: 2, budget: 3, to: [] })).toBe(
      "@bob, hand-off 2 of 3, from @alice",
    );
  });

  it("says who asked whom at the budget, and whom Stop did not reach", () => {
    expect(systemText(system("handoff-limit", "alice", ["bob"]))).toBe(
      "@alice asked @bob; the hand-off budget (3) is reached",
    );
    expect(systemText(system("handoffs-stopped", "", ["bob", "carol"]))).toBe(
      "Stopped: the hand-offs to @bob, @carol were not sent",
    );
  });
});
