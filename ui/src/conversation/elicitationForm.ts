// An agent's question (elicitation, issue 26) as a form: the values it starts with (the schema's
// defaults), what is wrong with the person's values (checked before anything is sent; the
// backend checks again), and the content sent with "accept" (empty optional fields left out).
// Values are kept as the form holds them: text for string, number and integer inputs, a boolean
// for a checkbox, the chosen values for a multi-select.

import type { ElicitationField } from "../../bindings";
import { t } from "../lib/i18n.svelte";

export type FormValue = string | boolean | string[];
export type FormValues = Record<string, FormValue>;
export type Content = Record<string, string | number | boolean | string[]>;

/** Only web addresses are offered to open (the backend refuses the others before they come). */
export function isWebAddress(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

export function initialValues(fields: readonly ElicitationField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const given = field.default;
    if (field.kind === "boolean") values[field.name] = given === true;
    else if (field.kind === "multiselect") values[field.name] = Array.isArray(given) ? [...given] : [];
    else values[field.name] = given === null || Array.isArray(given) ? "" : String(given);
  }
  return values;
}

export function label(field: ElicitationField): string {
  return field.title || field.name;
}

/** What is wrong with each field's value ("" when nothing). */
export function problems(fields: readonly ElicitationField[], values: FormValues): Record<string, string> {
  const found: Record<string, string> = {};
  for (const field of fields) found[field.name] = problem(field, values[field.name]);
  return found;
}

function problem(field: ElicitationField, value: FormValue | undefined): string {
  const name = label(field);
  if (field.kind === "boolean") return "";
  if (field.kind === "multiselect") {
    const chosen = Array.isArray(value) ? value : [];
    if (chosen.length === 0) return field.required ? t("{field} is required", { field: name }) : "";
    if (field.minItems !== null && chosen.length < field.minItems)
      return t("choose at least {count} for {field}", { count: field.minItems, field: name });
    if (field.maxItems !== null && chosen.length > field.maxItems)
      return t("choose at most {count} for {field}", { count: field.maxItems, field: name });
    return "";
  }
  const text = typeof value === "string" ? value : "";
  if (text.trim() === "") return field.required ? t("{field} is required", { field: name }) : "";
  if (field.kind === "number" || field.kind === "integer") {
    const number = Number(text);
    if (!Number.isFinite(number)) return t("{field} must be a number", { field: name });
    if (field.kind === "integer" && !Number.isInteger(number))
      return t("{field} must be a whole number", { field: name });
    if (field.minimum !== null && number < field.minimum)
      return t("{field} must be at least {minimum}", { field: name, minimum: field.minimum });
    if (field.maximum !== null && number > field.maximum)
      return t("{field} must be at most {maximum}", { field: name, maximum: field.maximum });
    return "";
  }
  if (field.kind === "enum") {
    return field.choices.some((c) => c.value === text) ? "" : t("{field} must be one of its choices", { field: name });
  }
  if (field.minLength !== null && text.length < field.minLength)
    return t("{field} needs at least {count} characters", { field: name, count: field.minLength });
  if (field.maxLength !== null && text.length > field.maxLength)
    return t("{field} takes at most {count} characters", { field: name, count: field.maxLength });
  return "";
}

/** The content "accept" sends: each field's value in its kind, empty optional fields left out. */
export function content(fields: readonly ElicitationField[], values: FormValues): Content {
  const sent: Content = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") sent[field.name] = value === true;
    else if (field.kind === "multiselect") {
      if (Array.isArray(value) && value.length > 0) sent[field.name] = [...value];
    } else if (typeof value === "string" && value.trim() !== "") {
      sent[field.name] = field.kind === "number" || field.kind === "integer" ? Number(value) : value;
    }
  }
  return sent;
}
