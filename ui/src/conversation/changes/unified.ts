// A recorded change's unified diff (the backend's text: `--- a/path`, `+++ b/path`, `@@ -a,b
// +c,d @@` hunks, ` `/`+`/`-` lines, `\ No newline at end of file`) read back into the hunks
// the diff table shows (../diff.ts's shapes, line numbers on both sides). Lines it does not know
// (the note of a diff cut at its size limit) are kept as notes, shown under the table.

import type { DiffLine, Hunk } from "../diff";

export interface ParsedDiff {
  hunks: Hunk[];
  notes: string[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnified(text: string): ParsedDiff {
  const hunks: Hunk[] = [];
  const notes: string[] = [];
  let hunk: Hunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const raw of lines) {
    const header = HUNK.exec(raw);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[3]);
      // An empty side starts at the line before its position (`-0,0`): numbers start at 1.
      if (header[2] === "0") oldLine += 1;
      if (header[4] === "0") newLine += 1;
      hunk = { header: raw, lines: [] };
      hunks.push(hunk);
      continue;
    }
    if (!hunk) {
      if (raw.startsWith("--- ") || raw.startsWith("+++ ")) continue; // the file names
      if (raw.trim()) notes.push(raw);
      continue;
    }
    const sign = raw.charAt(0);
    let line: DiffLine | null = null;
    if (sign === " ") line = { kind: "context", text: raw.slice(1), old: oldLine++, new: newLine++ };
    else if (sign === "-") line = { kind: "del", text: raw.slice(1), old: oldLine++, new: null };
    else if (sign === "+") line = { kind: "add", text: raw.slice(1), old: null, new: newLine++ };
    else if (sign === "\\") continue; // "\ No newline at end of file": the stats say enough
    else if (raw === "") line = { kind: "context", text: "", old: oldLine++, new: newLine++ };
    if (line) hunk.lines.push(line);
    else if (raw.trim()) {
      notes.push(raw);
      hunk = null; // what follows a note is not part of the hunk
    }
  }
  return { hunks, notes };
}
