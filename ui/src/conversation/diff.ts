// A line diff (Myers' O(ND) algorithm) between a tool call's oldText and newText, shown as a
// unified diff: hunks with 3 lines of context, + and - lines, line numbers on both sides.

export type LineKind = "context" | "add" | "del";

export interface DiffLine {
  kind: LineKind;
  text: string;
  /** 1-based line numbers in the old and new text (null where the line does not exist). */
  old: number | null;
  new: number | null;
}

export interface Hunk {
  header: string;
  lines: DiffLine[];
}

export interface FileDiff {
  hunks: Hunk[];
  added: number;
  removed: number;
  /** The texts were too different to diff line by line cheaply: shown as all removed, all added. */
  coarse: boolean;
}

const CONTEXT = 3;
const MAX_EDIT_DISTANCE = 1200; // beyond this, a whole replacement is as readable and far cheaper

export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop(); // a final newline ends the last line
  return lines;
}

type Op = { kind: LineKind; a: number; b: number }; // indices into old (a) and new (b)

/** The edit script from `a` to `b`, or null when it needs more than `maxD` edits. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: the diagonals -d-1…d+1 of v before step d (all that backtracking reads).
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))) {
        x = v[offset + k + 1] ?? 0;
      } else {
        x = (v[offset + k - 1] ?? 0) + 1;
      }
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return null;
}

function backtrack(
  trace: Int32Array[],
  n: number,
  m: number,
  dEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const prev = trace[d]; // v before step d, from diagonal -d-1: index k + d + 1
    if (!prev) break;
    const at = (k: number): number => prev[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: "context", a: x, b: y });
    }
    if (down) {
      y--;
      ops.push({ kind: "add", a: x, b: y });
    } else {
      x--;
      ops.push({ kind: "del", a: x, b: y });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ kind: "context", a: x, b: y });
  }
  return ops.reverse();
}

/** The unified diff from `oldText` to `newText`. */
export function lineDiff(oldText: string, newText: string): FileDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Common prefix and suffix cost nothing to match: only the middle goes through Myers.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB), MAX_EDIT_DISTANCE);
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: "context", a: i, b: i });
  let coarse = false;
  if (middle) {
    for (const op of middle) ops.push({ kind: op.kind, a: op.a + start, b: op.b + start });
  } else {
    coarse = true;
    for (let i = start; i < endA; i++) ops.push({ kind: "del", a: i, b: start });
    for (let j = start; j < endB; j++) ops.push({ kind: "add", a: endA, b: j });
  }
  for (let i = 0; endA + i < a.length; i++) ops.push({ kind: "context", a: endA + i, b: endB + i });

  const lines: DiffLine[] = ops.map((op) => ({
    kind: op.kind,
    text: (op.kind === "add" ? b[op.b] : a[op.a]) ?? "",
    old: op.kind === "add" ? null : op.a + 1,
    new: op.kind === "del" ? null : op.b + 1,
  }));
  return {
    hunks: hunks(lines),
    added: lines.filter((l) => l.kind === "add").length,
    removed: lines.filter((l) => l.kind === "del").length,
    coarse,
  };
}

/** Groups changed lines with CONTEXT lines around them; far-apart changes get their own hunk. */
function hunks(lines: DiffLine[]): Hunk[] {
  const changed = lines.map((l, i) => (l.kind === "context" ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return [];
  const ranges: [number, number][] = [];
  for (const i of changed) {
    const from = Math.max(0, i - CONTEXT);
    const to = Math.min(lines.length, i + CONTEXT + 1);
    const lastRange = ranges[ranges.length - 1];
    if (lastRange && from <= lastRange[1]) lastRange[1] = Math.max(lastRange[1], to);
    else ranges.push([from, to]);
  }
  return ranges.map(([from, to]) => {
    const slice = lines.slice(from, to);
    const oldStart = firstNumber(lines, from, "old");
    const newStart = firstNumber(lines, from, "new");
    const oldCount = slice.filter((l) => l.kind !== "add").length;
    const newCount = slice.filter((l) => l.kind !== "del").length;
    return {
      header: `@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`,
      lines: slice,
    };
  });
}

/** The first old/new line number at or after `from` (what a hunk header starts at). */
function firstNumber(lines: DiffLine[], from: number, side: "old" | "new"): number {
  for (let i = from; i < lines.length; i++) {
    const n = lines[i]?.[side];
    if (n != null) return n;
  }
  // Only lines of the other side follow: the position after the last line of this side.
  for (let i = from - 1; i >= 0; i--) {
    const n = lines[i]?.[side];
    if (n != null) return n + 1;
  }
  return 1;
}
