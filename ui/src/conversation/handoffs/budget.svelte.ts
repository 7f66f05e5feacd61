// A channel's hand-off budget set from the page (HandoffService.SetHandoffs), shared by the
// header's button and its "⋯" items: a choice made in the "⋯" menu unmounts those items at the
// click, so its refusal could be said nowhere; it is said in the window's toasts instead
// (HandoffBudgetToast, for the channel on screen), until dismissed or another choice is made. The
// button says its own beside it.
import { HandoffService } from "../../../bindings";
import { messageOf } from "../../lib/errors";

export const budgetChange = $state({ channel: "", pending: false, error: "", fromMenu: false });

export async function setBudget(channel: string, budget: number, fromMenu: boolean): Promise<void> {
  Object.assign(budgetChange, { channel, pending: true, error: "", fromMenu });
  try {
    await HandoffService.SetHandoffs(channel, budget);
  } catch (err) {
    if (budgetChange.channel === channel) budgetChange.error = messageOf(err);
  } finally {
    if (budgetChange.channel === channel) budgetChange.pending = false;
  }
}

export function dismissBudgetError(): void {
  budgetChange.error = "";
}
