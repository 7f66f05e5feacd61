// A backend message names programs and keys between backticks: shown as code, never as Markdown
// (the text stays text; only the backticks become the code style).

export interface Span {
  text: string;
  code: boolean;
}

/** `text` cut at its backticks: the odd parts are code. An unpaired backtick is kept as text. */
export function codeSpans(text: string): Span[] {
  const parts = text.split("`");
  if (parts.length % 2 === 0) return [{ text, code: false }]; // an odd number of backticks
  return parts
    .map((part, i) => ({ text: part, code: i % 2 === 1 }))
    .filter((span) => span.text !== "" || span.code);
}
