import { describe, expect, it } from "vitest";
import { agentLook, colorOf } from "./avatar";

describe("an agent's look", () => {
  it("is its icon when it has one", () => {
    expect(agentLook("demo", "Demo", "🤖").icon).toBe("🤖");
  });

  it("is the first letter of its title, upper-cased, when it has no icon", () => {
    expect(agentLook("bob", "builder bob", "")).toMatchObject({ icon: "", initial: "B" });
  });

  it("falls back to its name when the title is empty", () => {
    expect(agentLook("zed", "", undefined).initial).toBe("Z");
  });

  it("keeps a whole emoji or accented letter as the initial", () => {
    expect(agentLook("e", "éclair").initial).toBe("É");
  });

  it("has a colour that depends on the name alone", () => {
    expect(agentLook("alpha", "A").color).toBe(agentLook("alpha", "Other title", "x").color);
    const colours = new Set(["alpha", "beta", "gamma", "delta", "demo", "crashy"].map(colorOf));
    expect(colours.size).toBeGreaterThan(1);
  });
});
