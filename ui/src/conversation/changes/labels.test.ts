// The words of routes, authors and restore previews (English catalog).

import { describe, expect, it } from "vitest";
import type { RestoreFile } from "../../../bindings";
import { duringText, restoreStatus, routeLabel, skippedReason, skippedText, whoText } from "./labels";

describe("change labels", () => {
  it("says why a file was left out of the checkpoints", () => {
    expect(["too large", "nested repository", "unreadable", "other"].map(skippedReason)).toEqual([
      "over the size cap",
      "a repository of its own",
      "unreadable",
      "other",
    ]);
  });

  it("names each route shortly", () => {
    expect(["fs", "agent", "command", "restore"].map((r) => routeLabel(r as "fs"))).toEqual([
      "Sidekicks write",
      "Agent's own edit",
      "Command",
      "Restore",
    ]);
  });

  it("says who, and who else was answering in the folder", () => {
    expect(whoText("worker")).toBe("@worker");
    expect(whoText("you")).toBe("You");
    expect(duringText(["other"])).toBe("Changed while @other was also answering in this folder");
    expect(duringText(["a", "b"])).toBe("Changed while @a, @b were also answering in this folder");
  });

  it("says what a restore does to a file, or why it leaves it", () => {
    const file = (status: RestoreFile["status"]): RestoreFile =>
      ({ status, path: "/w/a", folder: "/w", oldPath: "", binary: false, additions: 0, deletions: 0, skipped: "" });
    expect(restoreStatus(file("added"))).toBe("recreated");
    expect(restoreStatus(file("deleted"))).toBe("removed");
    expect(skippedText("")).toBe("");
    expect(skippedText("link")).toBe("left as it is (a symbolic link)");
    expect(skippedText("too large")).toBe("left as it is (too large)");
  });
});
