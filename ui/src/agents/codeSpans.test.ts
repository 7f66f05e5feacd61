import { describe, expect, it } from "vitest";
import { codeSpans } from "./codeSpans";

describe("codeSpans", () => {
  it("shows the parts between backticks as code and the rest as text", () => {
    expect(codeSpans("`claude` was not found on PATH: the agent will not start")).toEqual([
      { text: "claude", code: true },
      { text: " was not found on PATH: the agent will not start", code: false },
    ]);
  });

  it("keeps a text with an unpaired backtick whole, as text", () => {
    expect(codeSpans("a ` b")).toEqual([{ text: "a ` b", code: false }]);
  });

  it("never turns markup into anything but text", () => {
    expect(codeSpans("<b>x</b> `<i>`")).toEqual([
      { text: "<b>x</b> ", code: false },
      { text: "<i>", code: true },
    ]);
  });
});
