// A search hit's snippet cut into plain and highlighted pieces, rendered as text (a snippet is
// the agent's or the person's text: never HTML). The backend's ranges count characters as
// Python does (code points): a JavaScript string counts UTF-16 units, so an emoji before a match
// would shift every mark after it if the ranges were applied to the string directly.

export interface Segment {
  text: string;
  mark: boolean;
}

/** `snippet` as pieces in order, those inside `highlights` ([start, end) in code points) marked.
 *  Ranges out of order, overlapping, empty or out of bounds are tolerated. */
export function segments(snippet: string, highlights: readonly (readonly number[])[]): Segment[] {
  const chars = Array.from(snippet);
  const ranges = highlights
    .map(([start = 0, end = 0]) => [Math.max(0, Math.trunc(start)), Math.min(chars.length, Math.trunc(end))])
    .filter(([start = 0, end = 0]) => end > start)
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
  const out: Segment[] = [];
  let at = 0;
  for (const [start = 0, end = 0] of ranges) {
    if (end <= at) continue; // inside the previous range
    const from = Math.max(start, at);
    if (from > at) out.push({ text: chars.slice(at, from).join(""), mark: false });
    const last = out[out.length - 1];
    const text = chars.slice(from, end).join("");
    // Touching or overlapping ranges make one mark.
    if (last?.mark && from === at) last.text += text;
    else out.push({ text, mark: true });
    at = end;
  }
  if (at < chars.length || out.length === 0) out.push({ text: chars.slice(at).join(""), mark: false });
  return out;
}
