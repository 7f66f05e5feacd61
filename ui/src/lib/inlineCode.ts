// System text (the app's and the backend's sentences: problems, errors, system lines) may quote
// names in `backticks`, as Markdown does. Only that is rendered: `code` becomes code, everything
// else stays text (no other Markdown, no HTML; CodeText.svelte shows the pieces as text nodes).

export interface TextPiece {
  text: string;
  code: boolean;
}

// A run of backticks, the shortest content, the same run again (CommonMark's code spans).
const SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** `text` cut into plain pieces and code pieces; an unmatched backtick stays as it is. */
export function inlineCode(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(SPAN)) {
    const start = match.index;
    // A longer run just before (``x`) is not this span's opening.
    if (start > 0 && text[start - 1] === "`") continue;
    let body = match[2] ?? "";
    if (/^ .*[^ ].* $/.test(body)) body = body.slice(1, -1); // `` `x` `` → `x`
    if (start > last) pieces.push({ text: text.slice(last, start), code: false });
    pieces.push({ text: body, code: true });
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), code: false });
  return pieces;
}

/** `text` without its code spans' backticks (for a title or a label read aloud). */
export function plainText(text: string): string {
  return inlineCode(text)
    .map((piece) => piece.text)
    .join("");
}

/** `text` as DOM nodes (text nodes and <code>), for a widget that takes nodes rather than a
 *  Svelte component (CodeMirror's lint tooltips). Never HTML: the pieces are text. */
export function codeTextNodes(text: string, doc: Document = document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  for (const piece of inlineCode(text)) {
    if (!piece.code) {
      fragment.append(doc.createTextNode(piece.text));
      continue;
    }
    const code = doc.createElement("code");
    code.className = "inline-code";
    code.textContent = piece.text;
    fragment.append(code);
  }
  return fragment;
}
