// System text renders `code` as code and nothing else (#16 item 9).

import { describe, expect, test } from "vitest";
import { inlineCode, plainText } from "./inlineCode";

describe("inline code in system text", () => {
  test("backticked names become code pieces and the rest stays text", () => {
    expect(inlineCode("`theme` must be one of: `system`, `light`")).toEqual([
      { text: "theme", code: true },
      { text: " must be one of: ", code: false },
      { text: "system", code: true },
      { text: ", ", code: false },
      { text: "light", code: true },
    ]);
  });

  test("a text without backticks is one plain piece", () => {
    expect(inlineCode("Nobody answered")).toEqual([{ text: "Nobody answered", code: false }]);
    expect(inlineCode("")).toEqual([]);
  });

  test("an unmatched backtick stays as it is", () => {
    expect(plainText("it's a ` alone")).toBe("it's a ` alone");
    expect(inlineCode("a ` b")).toEqual([{ text: "a ` b", code: false }]);
  });

  test("double backticks quote a name holding a backtick", () => {
    expect(inlineCode("run `` a`b ``")).toEqual([
      { text: "run ", code: false },
      { text: "a`b", code: true },
    ]);
  });

  test("Markdown and HTML other than code stay as written", () => {
    expect(inlineCode("**bold** <b>x</b> [l](u)")).toEqual([
      { text: "**bold** <b>x</b> [l](u)", code: false },
    ]);
    expect(inlineCode("`<script>`")).toEqual([{ text: "<script>", code: true }]);
  });

  test("plainText drops the backticks only", () => {
    expect(plainText("`theme` must be one of: `system`")).toBe("theme must be one of: system");
  });
});
