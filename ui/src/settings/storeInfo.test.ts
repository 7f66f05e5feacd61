import { describe, expect, it } from "vitest";
import { daysOf, humanSize, oldestText } from "./storeInfo";

describe("checkpoint store figures", () => {
  it("says a size in bytes, KB, MB, GB", () => {
    expect(humanSize(0)).toBe("0 B");
    expect(humanSize(512)).toBe("512 B");
    expect(humanSize(1536)).toBe("1.5 KB");
    expect(humanSize(12 * 1024 * 1024 + 1)).toBe("12 MB");
    expect(humanSize(3.25 * 1024 ** 3)).toBe("3.3 GB");
  });

  it("says the oldest date, or none", () => {
    expect(oldestText("")).toBe("none");
    expect(oldestText("2026-12-01T04:00:00Z")).toMatch(/2026/);
  });

  it("reads the days as a whole number, 0 included", () => {
    expect(daysOf("7")).toBe(7);
    expect(daysOf(" 0 ")).toBe(0);
    expect(daysOf("")).toBeNull();
    expect(daysOf("-1")).toBeNull();
    expect(daysOf("1.5")).toBeNull();
  });
});
