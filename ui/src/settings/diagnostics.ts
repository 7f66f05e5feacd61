// The backend's problems and warnings (1-based line and column) as CodeMirror diagnostics.

import type { Diagnostic } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import type { Problem } from "../../bindings";

/** The document offset of a 1-based line and column, kept inside the document. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const safeLine = Math.min(Math.max(line, 1), doc.lines);
  const at = doc.line(safeLine);
  return Math.min(at.from + Math.max(column - 1, 0), at.to);
}

/** Marks the word (key or value) that starts at the problem's position, or one character. */
function endOf(doc: Text, from: number): number {
  const line = doc.lineAt(from);
  const rest = line.text.slice(from - line.from);
  const word = /^[^\s:,#\]}]+/.exec(rest)?.[0].length ?? 0;
  return Math.min(from + Math.max(word, 1), line.to);
}

export function toDiagnostics(doc: Text, problems: Problem[]): Diagnostic[] {
  return problems.map((problem) => {
    const from = offsetOf(doc, problem.line, problem.column);
    return {
      from,
      to: endOf(doc, from),
      severity: problem.warning ? "warning" : "error",
      message: problem.message,
    };
  });
}
