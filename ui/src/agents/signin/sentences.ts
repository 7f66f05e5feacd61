// Sign-in methods named in sentences (issue 27): an agent's method names are labels ("Use
// CODEX_API_KEY", "Log in with Google"), not words that fit in "Signed in with …". A key method
// is said by its variables; any other method's name is quoted. Each msgid is literal, so that
// scripts/i18n.py extracts it (French quotes and word order are the translation's).

import type { AuthMethodInfo } from "../../../bindings";
import { t } from "../../lib/i18n.svelte";

/** "Signed in to Codex with your CODEX_API_KEY key": the saved `env_var` method, on the card. */
export function keySentence(agent: string, method: AuthMethodInfo): string {
  const names = method.vars.map((v) => v.name);
  if (names.length === 1) return t("Signed in to {agent} with your {key} key", { agent, key: names[0] ?? "" });
  if (names.length > 1) return t("Signed in to {agent} with your keys {keys}", { agent, keys: names.join(", ") });
  return signedInSentence(agent, method.name);
}

/** "Signed in to Gemini with “Log in with Google”.", or without a method when it is unknown. */
export function signedInSentence(agent: string, method: string): string {
  if (!method.trim()) return t("Signed in to {agent}.", { agent });
  return t("Signed in to {agent} with “{method}”.", { agent, method: method.trim() });
}

/** The heading of a sign-in under way or of its terminal: "Sign in to Claude with “Claude
 *  Subscription”". */
export function signInTitle(agent: string, method: string): string {
  if (!method.trim()) return t("Sign in to {agent}", { agent });
  return t("Sign in to {agent} with “{method}”", { agent, method: method.trim() });
}

/** "Signing in to Gemini with “Log in with Google”…" */
export function signingInSentence(agent: string, method: string): string {
  if (!method.trim()) return t("Signing in to {agent}…", { agent });
  return t("Signing in to {agent} with “{method}”…", { agent, method: method.trim() });
}
