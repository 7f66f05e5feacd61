import { beforeEach, describe, expect, it, vi } from "vitest";

const service = vi.hoisted(() => ({
  SetHandoffs: vi.fn<(channel: string, budget: number) => Promise<unknown>>(),
}));
vi.mock("../../../bindings", () => ({ HandoffService: { SetHandoffs: service.SetHandoffs } }));

const { budgetChange, dismissBudgetError, setBudget } = await import("./budget.svelte");

describe("a hand-off budget set from the page", () => {
  beforeEach(() => {
    service.SetHandoffs.mockReset();
    Object.assign(budgetChange, { channel: "", pending: false, error: "", fromMenu: false });
  });

  it("is pending while asked, then done with no error", async () => {
    let answer: (value: unknown) => void = () => {};
    service.SetHandoffs.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const asked = setBudget("room", 5, true);
    expect(budgetChange).toEqual({ channel: "room", pending: true, error: "", fromMenu: true });
    answer({});
    await asked;
    expect(service.SetHandoffs).toHaveBeenCalledWith("room", 5);
    expect(budgetChange).toEqual({ channel: "room", pending: false, error: "", fromMenu: true });
  });

  it("keeps a refusal, and where it was picked, until dismissed or picked again", async () => {
    service.SetHandoffs.mockRejectedValueOnce(new Error("the history could not be written"));
    await setBudget("room", 1, true);
    expect(budgetChange).toMatchObject({ channel: "room", error: "The history could not be written", fromMenu: true });
    dismissBudgetError();
    expect(budgetChange.error).toBe("");

    service.SetHandoffs.mockRejectedValueOnce(new Error("no"));
    await setBudget("room", 2, false);
    expect(budgetChange).toMatchObject({ error: "No", fromMenu: false });
    service.SetHandoffs.mockResolvedValueOnce({});
    await setBudget("room", 3, false);
    expect(budgetChange.error).toBe("");
  });

  it("leaves the answer of a channel no longer asked about to the one asked now", async () => {
    let refuse: (reason: Error) => void = () => {};
    service.SetHandoffs.mockReturnValueOnce(new Promise((_, reject) => (refuse = reject)));
    const first = setBudget("room", 1, true);
    service.SetHandoffs.mockResolvedValueOnce({});
    await setBudget("other", 2, false);
    refuse(new Error("late"));
    await first;
    expect(budgetChange).toEqual({ channel: "other", pending: false, error: "", fromMenu: false });
  });
});
