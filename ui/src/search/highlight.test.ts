import { describe, expect, it } from "vitest";
import { segments } from "./highlight";

describe("segments", () => {
  it("marks the ranges and keeps the text between them", () => {
    expect(segments("the quick fox", [[4, 9]])).toEqual([
      { text: "the ", mark: false },
      { text: "quick", mark: true },
      { text: " fox", mark: false },
    ]);
  });

  it("gives the whole snippet unmarked without ranges", () => {
    expect(segments("plain", [])).toEqual([{ text: "plain", mark: false }]);
    expect(segments("", [])).toEqual([{ text: "", mark: false }]);
  });

  it("counts characters as code points, so an emoji before a match does not shift it", () => {
    // In Python, "🦊 fox"[2:5] == "fox".
    expect(segments("🦊 fox", [[2, 5]])).toEqual([
      { text: "🦊 ", mark: false },
      { text: "fox", mark: true },
    ]);
  });

  it("sorts, merges overlapping or touching ranges and drops empty or outside ones", () => {
    expect(segments("abcdefgh", [[5, 7], [0, 2], [1, 3], [3, 4], [6, 6], [20, 30], [-5, 0]])).toEqual([
      { text: "abcd", mark: true },
      { text: "e", mark: false },
      { text: "fg", mark: true },
      { text: "h", mark: false },
    ]);
  });

  it("clips a range past the end", () => {
    expect(segments("abc", [[1, 99]])).toEqual([
      { text: "a", mark: false },
      { text: "bc", mark: true },
    ]);
  });

  it("keeps hostile markup as the text it is", () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const pieces = segments(hostile, [[1, 4]]);
    expect(pieces.map((p) => p.text).join("")).toBe(hostile);
    expect(pieces[1]).toEqual({ text: "img", mark: true });
  });
});
