// UI translations. Every visible string goes through t(msgid, params?): msgid is the English text,
// written as ONE string literal so that scripts/i18n.py can extract it into locales/ (a variable,
// a template literal or a concatenation is not extracted). Placeholders are {name}, filled from
// params; the French translation keeps the same names. N_(msgid) only marks a string whose t()
// call takes a variable; pt(context, msgid) translates a word differently in one context.
// After adding strings: scripts/i18n.py extract && scripts/i18n.py update, translate
// locales/fr/LC_MESSAGES/messages.po, then scripts/i18n.py compile.
//
// The catalogs come from locales.generated.json (written by scripts/i18n.py compile, which
// scripts/setup runs). `i18n.language` is reactive state: a template or $derived that calls t()
// reads it, so it updates when setLanguage() changes the language.

import catalogs from "./locales.generated.json";

export type Language = "en" | "fr";
export type LanguageSetting = "system" | Language;
export type Params = Readonly<Record<string, string | number>>;

const CATALOGS: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  en: catalogs.en,
  fr: catalogs.fr,
};

/** The language the UI is shown in; change it with setLanguage(). */
export const i18n: { language: Language } = $state({ language: "en" });

/** "fr" or "en" for a configuration's `language` ("system", or anything else, follows the
 *  browser's language, which Qt WebEngine takes from the system's like the server does). */
export function resolveLanguage(setting: LanguageSetting | (string & {})): Language {
  const chosen: string = setting;
  if (chosen === "en" || chosen === "fr") return chosen;
  const system = typeof navigator === "undefined" ? "" : (navigator.languages[0] ?? navigator.language);
  return system.toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** Shows the UI in `setting` ("system", "en" or "fr"); returns the language chosen. */
export function setLanguage(setting: LanguageSetting | (string & {})): Language {
  const language = resolveLanguage(setting);
  i18n.language = language;
  if (typeof document !== "undefined") document.documentElement.lang = language;
  return language;
}

/** `msgid` in the current language (itself when untranslated), with its {name}s filled in. */
export function t(msgid: string, params?: Params): string {
  const text = CATALOGS[i18n.language][msgid] ?? msgid;
  return params === undefined ? text : fill(text, params);
}

/** `msgid` as translated for `context`, for a word whose translation depends on where it is shown
 *  (a "Delete" button is « Supprimer », a "Delete" tool call is « Suppression »). Both arguments
 *  are string literals, like t()'s msgid. */
export function pt(context: string, msgid: string, params?: Params): string {
  const text = CATALOGS[i18n.language][`${context}\u0004${msgid}`] ?? msgid;
  return params === undefined ? text : fill(text, params);
}

/** Marks `msgid` for extraction without translating it: translate it later with t(variable). */
export function N_(msgid: string): string {
  return msgid;
}

/** `text` with each {name} replaced by params[name]; unknown names are left as they are. */
export function fill(text: string, params: Params): string {
  return text.replace(/\{(\w+)\}/g, (whole: string, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}
