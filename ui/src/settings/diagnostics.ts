// The backend's problems and warnings (1-based line and column) as CodeMirror diagnostics.

import type { Diagnostic } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import type { Problem } from "../../bindings";
import { sentence } from "../lib/errors";
import { codeTextNodes, plainText } from "../lib/inlineCode";

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
    const text = sentence(problem.message);
    return {
      from,
      to: endOf(doc, from),
      severity: problem.warning ? "warning" : "error",
      message: plainText(text),
      // `code` spans as code, as in the problem list; the parser's own words below, faint.
      renderMessage: () => messageNodes(text, problem.detail),
    };
  });
}

function messageNodes(text: string, detail: string): HTMLElement {
  const box = document.createElement("span");
  box.append(codeTextNodes(text));
  if (detail) {
    const words = document.createElement("span");
    words.className = "problem-detail";
    words.textContent = detail;
    box.append(document.createElement("br"), words);
  }
  return box;
}
