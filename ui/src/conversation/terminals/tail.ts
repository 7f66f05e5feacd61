// Keeping the end of a terminal's output within a bound: a command may print 50 MB, the page
// keeps (and shows) its last lines only. Cutting happens after a line break when one is near
// the cut, so that the kept text starts at the beginning of a line (and rarely in the middle
// of an ANSI sequence, which would print as garbage).

/** How far past the cut a line break is looked for (beyond it, the cut stays where it is). */
const LINE_SEARCH = 4096;

/** The last (about) `limit` characters of `text`, starting after a line break when one is
 *  within LINE_SEARCH characters of the cut; `dropped` counts the characters cut off. */
export function keepTail(text: string, limit: number): { text: string; dropped: number } {
  if (text.length <= limit) return { text, dropped: 0 };
  let cut = text.length - limit;
  const newline = text.indexOf("\n", cut);
  if (newline >= 0 && newline - cut < LINE_SEARCH && newline + 1 < text.length) cut = newline + 1;
  // Never split a surrogate pair (an emoji's two halves).
  const code = text.charCodeAt(cut);
  if (code >= 0xdc00 && code <= 0xdfff) cut += 1;
  return { text: text.slice(cut), dropped: cut };
}

/** `tail + data`, cut back to its last `limit` characters only once it passed twice that:
 *  cutting means copying the whole string, so it happens once per `limit` characters
 *  appended, not at every piece (a flood arrives in thousands of pieces). */
export function appendTail(tail: string, data: string, limit: number): { text: string; dropped: number } {
  const joined = tail + data;
  return joined.length > 2 * limit ? keepTail(joined, limit) : { text: joined, dropped: 0 };
}
