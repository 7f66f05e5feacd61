import { describe, expect, it } from "vitest";
import type { SearchHit } from "../../bindings";
import { LatestOnly, moveSelection, newestFirst, whenOf } from "./results";

function hit(messageId: string, createdAt: string): SearchHit {
  return {
    channel: "c",
    channelName: "general",
    messageId,
    agent: "",
    role: "user",
    createdAt,
    snippet: messageId,
    highlights: [],
  };
}

describe("newestFirst", () => {
  it("puts the newest hit first and keeps the given order for equal times", () => {
    const hits = [
      hit("old", "2026-01-01T10:00:00Z"),
      hit("new", "2026-03-01T10:00:00Z"),
      hit("same-a", "2026-02-01T10:00:00Z"),
      hit("same-b", "2026-02-01T10:00:00Z"),
    ];
    expect(newestFirst(hits).map((h) => h.messageId)).toEqual(["new", "same-a", "same-b", "old"]);
  });

  it("puts hits with an unreadable time last", () => {
    const hits = [hit("bad", "not a date"), hit("ok", "2026-01-01T10:00:00Z")];
    expect(newestFirst(hits).map((h) => h.messageId)).toEqual(["ok", "bad"]);
  });
});

describe("moveSelection", () => {
  it("moves down and up and stops at both ends", () => {
    expect(moveSelection(0, 1, 3)).toBe(1);
    expect(moveSelection(2, 1, 3)).toBe(2);
    expect(moveSelection(0, -1, 3)).toBe(0);
    expect(moveSelection(-1, 1, 3)).toBe(0);
  });

  it("selects nothing without results", () => {
    expect(moveSelection(0, 1, 0)).toBe(-1);
  });
});

describe("LatestOnly", () => {
  it("keeps only the answer to the last query sent", () => {
    const latest = new LatestOnly();
    const first = latest.next();
    const second = latest.next();
    expect(latest.current(first)).toBe(false); // late: it must not overwrite the second's
    expect(latest.current(second)).toBe(true);
  });

  it("wants no answer once forgotten", () => {
    const latest = new LatestOnly();
    const ticket = latest.next();
    latest.forget();
    expect(latest.current(ticket)).toBe(false);
  });
});

describe("whenOf", () => {
  const now = new Date(2026, 5, 15, 12, 0);
  it("tells the time today, the day this year and the full date before", () => {
    expect(whenOf(new Date(2026, 5, 15, 9, 30).toISOString(), now)?.kind).toBe("time");
    expect(whenOf(new Date(2026, 1, 3, 9, 30).toISOString(), now)?.kind).toBe("day");
    expect(whenOf(new Date(2025, 11, 31, 9, 30).toISOString(), now)?.kind).toBe("year");
    expect(whenOf("nonsense", now)).toBeNull();
  });
});
