import { describe, expect, it } from "vitest";
import { ANSI_NAMES, terminalTheme } from "./terminalTheme";

describe("terminalTheme", () => {
  it("takes the window's colours and the 16 terminal colours from custom properties", () => {
    const properties: Record<string, string> = {
      "--log-bg": " #141417",
      "--text": "#e7e7ea",
      "--accent": "#7b7bf0",
      "--selection": "rgba(123, 123, 240, 0.3)",
      "--term-ansi-1": "#ff6b6b",
      "--term-ansi-15": "#f4f4f6",
    };
    const theme = terminalTheme((name) => properties[name] ?? "");
    expect(theme).toEqual({
      background: "#141417",
      foreground: "#e7e7ea",
      cursor: "#7b7bf0",
      cursorAccent: "#141417",
      selectionBackground: "rgba(123, 123, 240, 0.3)",
      red: "#ff6b6b",
      brightWhite: "#f4f4f6",
    });
  });
  it("names the 16 colours in xterm's order", () => {
    expect(ANSI_NAMES).toHaveLength(16);
    expect(ANSI_NAMES[0]).toBe("black");
    expect(ANSI_NAMES[9]).toBe("brightRed");
  });
});
