import { describe, expect, it } from "vitest";
import { ansiSpans } from "./ansi";

describe("ansiSpans", () => {
  it("keeps a plain line as one unstyled span", () => {
    expect(ansiSpans("plain <b>text</b> & more")).toEqual([
      { text: "plain <b>text</b> & more", classes: "" },
    ]);
  });

  it("gives coloured text the class of its colour and resets after ESC[0m", () => {
    expect(ansiSpans("\x1b[31merror:\x1b[0m no token")).toEqual([
      { text: "error:", classes: "ansi-fg-1" },
      { text: " no token", classes: "" },
    ]);
  });

  it("combines bold, dim, italic, underline and bright and background colours", () => {
    expect(ansiSpans("\x1b[1;3;4;92;44mloud\x1b[22;23;24mquiet\x1b[2mdim\x1b[m")).toEqual([
      { text: "loud", classes: "ansi-fg-10 ansi-bg-4 ansi-bold ansi-italic ansi-underline" },
      { text: "quiet", classes: "ansi-fg-10 ansi-bg-4" },
      { text: "dim", classes: "ansi-fg-10 ansi-bg-4 ansi-dim" },
    ]);
  });

  it("maps 256-colour indexes below 16 and ignores true colour and higher indexes", () => {
    // 208 has no class: "b" keeps the colour before it.
    expect(ansiSpans("\x1b[38;5;9ma\x1b[38;5;208mb\x1b[39;38;2;1;2;3mc")).toEqual([
      { text: "ab", classes: "ansi-fg-9" },
      { text: "c", classes: "" },
    ]);
  });

  it("drops cursor moves, OSC titles and hyperlinks, other ESC sequences and control chars", () => {
    const line =
      "\x1b[2K\x1b[1Aa\x1b]0;title\x07b\x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\\x1b(Bc\x07\x08d\te\x1b[31";
    expect(ansiSpans(line)).toEqual([{ text: "ablinkcd\te", classes: "" }]);
  });

  it("never turns agent text into markup", () => {
    const spans = ansiSpans('\x1b[31m<img src=x onerror="alert(1)">');
    expect(spans).toEqual([{ text: '<img src=x onerror="alert(1)">', classes: "ansi-fg-1" }]);
  });
});
