import { describe, expect, it } from "vitest";
import type { RateLimit } from "../../bindings";
import { costText, limitLines, limitNear } from "./usage";

const window = (w: Partial<RateLimit>): RateLimit => ({
  window: "five_hour",
  status: "allowed",
  utilization: null,
  resetsAt: null,
  ...w,
});

describe("the meter's cost and rate limits", () => {
  it("says the cost in its currency", () => {
    expect(costText({ amount: 0.4213, currency: "USD" }, "en")).toBe("$0.4213");
    expect(costText({ amount: 12.5, currency: "EUR" }, "en")).toBe("€12.50");
    expect(costText({ amount: 3, currency: "not a code" }, "en")).toBe("3 not a code");
  });

  it("says each window's use and its reset", () => {
    const lines = limitLines(
      [
        window({ utilization: 0.42 }),
        window({ window: "seven_day", status: "allowed_warning", utilization: 0.91, resetsAt: 1767571200 }),
        window({ window: "seven_day_opus", status: "rejected" }),
        window({ window: "overage" }),
      ],
      "en",
    );
    expect(lines[0]).toBe("5-hour limit: 42% used");
    expect(lines[1]).toMatch(/^Weekly limit: 91% used, resets \w+/);
    expect(lines[2]).toBe("Weekly limit (Opus): reached");
    expect(lines[3]).toBe("overage");
  });

  it("warns near a window's end", () => {
    expect(limitNear([window({ utilization: 0.5 })])).toBe(false);
    expect(limitNear([window({ utilization: 0.85 })])).toBe(true);
    expect(limitNear([window({ status: "allowed_warning", utilization: 0.1 })])).toBe(true);
  });
});
