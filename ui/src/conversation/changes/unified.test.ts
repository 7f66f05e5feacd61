import { describe, expect, it } from "vitest";
import { parseUnified } from "./unified";

describe("parseUnified", () => {
  it("reads a change's hunks with line numbers on both sides", () => {
    const diff = [
      "--- a/tmp/w/notes.txt",
      "+++ b/tmp/w/notes.txt",
      "@@ -1,3 +1,3 @@",
      " one",
      "-two",
      "+TWO",
      " three",
      "@@ -10,2 +10,3 @@",
      " ten",
      " eleven",
      "+twelve",
      "",
    ].join("\n");
    const { hunks, notes } = parseUnified(diff);
    expect(notes).toEqual([]);
    expect(hunks.map((h) => h.header)).toEqual(["@@ -1,3 +1,3 @@", "@@ -10,2 +10,3 @@"]);
    expect(hunks[0]?.lines).toEqual([
      { kind: "context", text: "one", old: 1, new: 1 },
      { kind: "del", text: "two", old: 2, new: null },
      { kind: "add", text: "TWO", old: null, new: 2 },
      { kind: "context", text: "three", old: 3, new: 3 },
    ]);
    expect(hunks[1]?.lines[2]).toEqual({ kind: "add", text: "twelve", old: null, new: 12 });
  });

  it("numbers a new file's lines from 1 and skips the no-newline marker", () => {
    const diff = "--- /dev/null\n+++ b/tmp/w/a.py\n@@ -0,0 +1,2 @@\n+print(1)\n+print(2)\n\\ No newline at end of file\n";
    const { hunks } = parseUnified(diff);
    expect(hunks[0]?.lines.map((l) => [l.kind, l.new, l.text])).toEqual([
      ["add", 1, "print(1)"],
      ["add", 2, "print(2)"],
    ]);
  });

  it("keeps the note of a diff cut at its size limit apart from the hunks", () => {
    const diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n[diff cut at 200 KB: the change is larger]\n";
    const { hunks, notes } = parseUnified(diff);
    expect(hunks).toHaveLength(1);
    expect(hunks[0]?.lines).toHaveLength(2);
    expect(notes).toEqual(["[diff cut at 200 KB: the change is larger]"]);
  });

  it("reads an empty diff (a write of the same text) as no hunks", () => {
    expect(parseUnified("")).toEqual({ hunks: [], notes: [] });
  });
});
