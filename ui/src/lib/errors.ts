/** The message of whatever a service call rejected with (the bindings reject with an Error),
 *  shown as a sentence: see sentence(). */
export function messageOf(err: unknown): string {
  return sentence(err instanceof Error ? err.message : String(err));
}

/** `text` starting with a capital letter, as a sentence shown on its own should. The backend's
 *  messages (English and French catalogs) start lowercase because they are also embedded in
 *  longer log lines; the UI capitalizes them where it shows them. A first word that is a name
 *  or a path (it holds a digit, `.`, `/`, `_`, `-`, `@`, `:` or a backtick), e.g. `demo-2 …`
 *  or `/tmp/x …`, is left as written. */
export function sentence(text: string): string {
  const first = /^\S*/.exec(text)?.[0] ?? "";
  if (/[\d./_\-@:`\\]/.test(first.replace(/[,;:]$/, ""))) return text;
  const letter = Array.from(text)[0] ?? "";
  if (letter === letter.toUpperCase()) return text;
  return letter.toUpperCase() + text.slice(letter.length);
}
