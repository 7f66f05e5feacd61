// When "Fork from here" offers a fork into worktrees: only at a message with a checkpoint.

import { describe, expect, it } from "vitest";
import type { AnswerCheckpoint } from "../../../bindings";
import { hasCheckpointAt } from "./forkChoice";

function checkpoint(messageId: string, endedAt = "2026-12-01T04:00:05.000Z"): AnswerCheckpoint {
  return { messageId, agent: "w", folders: ["/w"], startedAt: "", endedAt, restorable: true, skipped: [] };
}

describe("hasCheckpointAt", () => {
  it("offers it at an answer that checkpointed, once it ended", () => {
    expect(hasCheckpointAt({ id: "a1", role: "agent" }, [checkpoint("a1")])).toBe(true);
    expect(hasCheckpointAt({ id: "a1", role: "agent" }, [checkpoint("a1", "")])).toBe(false);
    expect(hasCheckpointAt({ id: "a2", role: "agent" }, [checkpoint("a1")])).toBe(false);
  });

  it("offers it at the person's message when some answer checkpointed", () => {
    expect(hasCheckpointAt({ id: "u1", role: "user" }, [checkpoint("a1")])).toBe(true);
    expect(hasCheckpointAt({ id: "u1", role: "user" }, [])).toBe(false);
    expect(hasCheckpointAt({ id: "u1", role: "user" }, [checkpoint("a1", "")])).toBe(false);
  });
});
