import { describe, expect, it } from "vitest";
import { turnSpinners } from "./spinners";

describe("turnSpinners", () => {
  it("turns every spinner by 45° a step, a whole turn in 8", () => {
    const spinners = [{ style: { transform: "" } }, { style: { transform: "" } }];
    turnSpinners(spinners, 3);
    expect(spinners.map((s) => s.style.transform)).toEqual(["rotate(135deg)", "rotate(135deg)"]);
    turnSpinners(spinners, 8);
    expect(spinners[0]?.style.transform).toBe("rotate(0deg)");
  });
});
