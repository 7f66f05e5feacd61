// What a member's session offers, as the header shows it: one picker per thing the person can set,
// in a fixed order whatever order the agent announced them in (mode, model, reasoning, the rest),
// so that the same kind of control sits at the same place for every agent.

import type { MemberSession, ModeInfo, OptionChoiceInfo, SessionOptionInfo } from "../../../bindings";

/** The header's groups, in the order they are shown. */
export type PickerGroup = "mode" | "model" | "reasoning" | "other";
const GROUP_ORDER: readonly PickerGroup[] = ["mode", "model", "reasoning", "other"];

/** One control: the session's mode (ACP `modes`), a select option, or a boolean option. */
export type Picker =
  | { kind: "mode"; group: "mode"; key: string; value: string; choices: OptionChoiceInfo[] }
  | {
      kind: "select";
      group: PickerGroup;
      key: string;
      option: SessionOptionInfo;
      value: string;
      choices: OptionChoiceInfo[];
    }
  | { kind: "boolean"; group: PickerGroup; key: string; option: SessionOptionInfo; value: boolean };

/** The key a pending change of the session's mode is kept under. */
export const MODE_KEY = "mode";

/** The key a pending change of option `id` is kept under (never equal to MODE_KEY). */
export function optionKey(id: string): string {
  return `option:${id}`;
}

/** The group of an option, from the agent's `category` hint (ACP: "mode", "model",
 *  "thought_level"; some agents say "reasoning" or "effort"); anything else is "other". */
export function groupOf(option: Pick<SessionOptionInfo, "category">): PickerGroup {
  const category = option.category.toLowerCase();
  if (category === "mode") return "mode";
  if (category === "model") return "model";
  if (category === "thought_level" || category.includes("reasoning") || category.includes("effort"))
    return "reasoning";
  return "other";
}

/** The options in the header's order: by group, and in the agent's order within a group. */
export function orderOptions(options: readonly SessionOptionInfo[]): SessionOptionInfo[] {
  const rank = (option: SessionOptionInfo): number => GROUP_ORDER.indexOf(groupOf(option));
  return options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => rank(a.option) - rank(b.option) || a.index - b.index)
    .map(({ option }) => option);
}

function modeChoices(modes: readonly ModeInfo[]): OptionChoiceInfo[] {
  return modes.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description }));
}

/** The controls of a session, in order. The ACP `modes` are left out when the agent also offers
 *  a "mode" option (ACP: a client that reads config options uses them instead of the modes);
 *  a select without choices has nothing to pick and is left out too. */
export function pickersOf(session: MemberSession | undefined): Picker[] {
  if (!session) return [];
  const pickers: Picker[] = [];
  const options = orderOptions(session.options);
  if (session.modes.length > 0 && !options.some((option) => groupOf(option) === "mode")) {
    pickers.push({
      kind: "mode",
      group: "mode",
      key: MODE_KEY,
      value: session.mode,
      choices: modeChoices(session.modes),
    });
  }
  for (const option of options) {
    const group = groupOf(option);
    const key = optionKey(option.id);
    if (option.kind === "boolean") {
      pickers.push({ kind: "boolean", group, key, option, value: option.value === true });
    } else if (option.choices.length > 0) {
      const value = typeof option.value === "string" ? option.value : String(option.value);
      pickers.push({ kind: "select", group, key, option, value, choices: option.choices });
    }
  }
  return pickers;
}

/** Whether the session offers anything to set (otherwise the header shows nothing for it). */
export function offersSomething(session: MemberSession | undefined): boolean {
  return pickersOf(session).length > 0;
}

/** The name of `value` among `choices` (the value itself when the agent did not list it). */
export function choiceName(choices: readonly OptionChoiceInfo[], value: string): string {
  return choices.find((choice) => choice.value === value)?.name || value;
}

/** A few words for a member's chip in a channel: its mode's name, then its model's. */
export function summaryOf(pickers: readonly Picker[]): string {
  const names: string[] = [];
  for (const picker of pickers) {
    if (picker.kind === "boolean" || (picker.group !== "mode" && picker.group !== "model")) continue;
    if (names.length === 2) break;
    names.push(choiceName(picker.choices, picker.value));
  }
  return names.join(" · ");
}
