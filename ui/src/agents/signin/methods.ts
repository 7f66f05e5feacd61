// What the sign-in UI shows of an agent's methods (AgentInfo.authMethods, as the agent announced
// them: untrusted text, shown as text). Pure functions, tested in methods.test.ts.

import type { AuthMethodInfo, AuthVarInfo, Message } from "../../../bindings";

/** The method's link when it is a web address; "" otherwise (an agent may announce anything,
 *  and only http(s) pages open in the system browser). */
export function safeLink(link: string): string {
  const trimmed = link.trim();
  try {
    const url = new URL(trimmed);
    return url.protocol === "https:" || url.protocol === "http:" ? trimmed : "";
  } catch {
    return "";
  }
}

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A command as a person would type it in a shell: words with spaces or quotes are quoted. */
export function commandLine(command: readonly string[]): string {
  return command
    .map((word) => (word !== "" && PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(" ");
}

/** The `env_var` method whose values are saved (the one the agent is signed in with), if any. */
export function savedMethod(methods: readonly AuthMethodInfo[]): AuthMethodInfo | undefined {
  return methods.find((m) => m.type === "env_var" && m.saved);
}

/** What a variable's field is labelled with: its label, or its name. */
export function varLabel(variable: AuthVarInfo): string {
  return variable.label.trim() || variable.name;
}

/** One empty value per variable of the method, the form's starting point. */
export function emptyValues(vars: readonly AuthVarInfo[]): Record<string, string> {
  return Object.fromEntries(vars.map((v) => [v.name, ""]));
}

/** True when every variable has a value (spaces around a pasted key do not count). */
export function complete(vars: readonly AuthVarInfo[], values: Readonly<Record<string, string>>): boolean {
  return vars.length > 0 && vars.every((v) => (values[v.name] ?? "").trim() !== "");
}

/** The values to send: trimmed (a key pasted with a newline would not work). */
export function cleaned(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.trim()]));
}

/** The text of the person's last message among `messages` (oldest first), or "" when there is
 *  none: what "Send again" sends after a sign-in. Its text parts, as the person wrote them. */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "user") continue;
    const text = message.parts
      .filter((p) => p.kind === "text")
      .map((p) => p.text)
      .join("");
    if (text.trim()) return text;
  }
  return "";
}
