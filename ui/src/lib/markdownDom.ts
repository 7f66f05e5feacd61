// A finished message's Markdown as nodes built straight from marked's tokens: no HTML string,
// no HTML parsing, no sanitizer pass. The nodes are exactly those the browser would make of
// lib/markdownParse's HTML (same elements, attributes, text and "\n" text between blocks; Vitest
// serializes both and compares), so a message looks the same streaming (HTML, DOMPurify) and
// finished (this).
//
// Safe by construction: every element is one of a fixed set of tag names written here, every
// text is a text node (never parsed as markup), and every attribute goes through
// lib/markdownPolicy (links: http, https, mailto and message links only; images: data: only).
// Character references in Markdown text (`&copy;`) are decoded as the HTML would have been, by
// `decode`, which only ever sees text with its `<` and `>` escaped.
//
// Building from tokens costs a fifth of parsing the HTML and checking it (issue 16 item 17).

import type { Token, Tokens } from "marked";
import { allowedAttribute, allowedTag, opensOutside } from "./markdownPolicy";
import { DATA_IMAGE, SAFE_URL, codeLanguage } from "./markdownParse";

/** Where the nodes go: the page's document, or a stand-in in tests. */
export interface Sink<N> {
  element(tag: string): N;
  text(data: string): N;
  attribute(element: N, name: string, value: string): void;
  append(parent: N, child: N): void;
  /** The text an HTML text with character references (and no tags) stands for. */
  decode(escaped: string): string;
}

// marked's escape for text that may hold character references: they are left for the browser.
const REFERENCE = /&(?:#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);/;
const ESCAPE_KEEPING_REFERENCES = /[<>"']|&(?!(?:#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function buildMarkdown<N>(tokens: Token[], sink: Sink<N>, root: N): void {
  const decoded = (text: string): string =>
    REFERENCE.test(text) ? sink.decode(text.replace(ESCAPE_KEEPING_REFERENCES, (c) => ESCAPES[c] ?? c)) : text;
  const text = (parent: N, data: string): void => {
    if (data) sink.append(parent, sink.text(data));
  };
  const element = (parent: N, tag: string, attributes: [string, string][] = []): N => {
    const node = sink.element(allowedTag(tag) ? tag : "span"); // (only ever the tags written here)
    for (const [name, value] of attributes) {
      const kept = allowedAttribute(tag, name, value);
      if (kept !== null) sink.attribute(node, name, kept);
    }
    sink.append(parent, node);
    return node;
  };
  const newline = (parent: N): void => text(parent, "\n");

  function blocks(parent: N, list: Token[]): void {
    for (const token of list) block(parent, token);
  }

  function block(parent: N, token: Token): void {
    const t = token as Tokens.Generic;
    switch (t.type) {
      case "space":
      case "def":
        return;
      case "paragraph":
        inline(element(parent, "p"), (token as Tokens.Paragraph).tokens);
        return newline(parent);
      case "heading": {
        const heading = token as Tokens.Heading;
        inline(element(parent, `h${Math.min(6, Math.max(1, heading.depth))}`), heading.tokens);
        return newline(parent);
      }
      case "code":
        code(parent, token as Tokens.Code);
        return newline(parent);
      case "blockquote": {
        const quote = element(parent, "blockquote");
        newline(quote);
        blocks(quote, (token as Tokens.Blockquote).tokens);
        return newline(parent);
      }
      case "hr":
        element(parent, "hr");
        return newline(parent);
      case "list": {
        const list = token as Tokens.List;
        const start = list.ordered && list.start !== 1 && list.start !== "" ? [["start", String(list.start)] as [string, string]] : [];
        const node = element(parent, list.ordered ? "ol" : "ul", start);
        newline(node);
        for (const item of list.items) {
          blocks(element(node, "li"), item.tokens);
          newline(node);
        }
        return newline(parent);
      }
      case "table":
        table(parent, token as Tokens.Table);
        return newline(parent);
      case "html": {
        // Raw HTML shows as its text (lib/markdownParse), a block of it in a paragraph.
        const html = token as Tokens.HTML;
        if (!html.block) return text(parent, html.text);
        text(element(parent, "p"), html.text.trim());
        return newline(parent);
      }
      case "text": {
        const plain = token as Tokens.Text;
        if (plain.tokens) inline(parent, plain.tokens);
        else text(parent, decoded(plain.text));
        return;
      }
      case "checkbox":
        return text(parent, (token as Tokens.Checkbox).checked ? "☑ " : "☐ ");
      default:
        return text(parent, t.raw); // a token this file does not know: its source, as text
    }
  }

  function code(parent: N, token: Tokens.Code): void {
    const language = codeLanguage(token.lang);
    const label = (token.lang ?? "").trim().split(/\s+/)[0] ?? "";
    const div = element(parent, "div", [["class", label ? "code-block labelled" : "code-block"]]);
    if (label) text(element(div, "span", [["class", "code-lang"]]), label);
    const pre = element(div, "pre");
    const attributes: [string, string][] = language
      ? [["class", `hljs language-${language}`], ["data-lang", language]]
      : [["class", "hljs"]];
    text(element(pre, "code", attributes), token.text.replace(/\n$/, ""));
  }

  function table(parent: N, token: Tokens.Table): void {
    const node = element(parent, "table");
    newline(node);
    const head = element(node, "thead");
    newline(head);
    row(head, token.header);
    newline(node);
    if (token.rows.length === 0) return;
    const body = element(node, "tbody");
    for (const cells of token.rows) row(body, cells);
  }

  function row(parent: N, cells: Tokens.TableCell[]): void {
    const tr = element(parent, "tr");
    newline(tr);
    for (const cell of cells) {
      inline(element(tr, cell.header ? "th" : "td", cell.align ? [["align", cell.align]] : []), cell.tokens);
      newline(tr);
    }
    newline(parent);
  }

  function inline(parent: N, list: Token[]): void {
    for (const token of list) {
      const t = token as Tokens.Generic;
      switch (t.type) {
        case "text":
        case "escape": {
          const plain = token as Tokens.Text;
          if (plain.tokens) inline(parent, plain.tokens);
          else text(parent, decoded(plain.text));
          break;
        }
        case "strong":
        case "em":
        case "del":
          inline(element(parent, t.type), (token as Tokens.Strong).tokens);
          break;
        case "codespan":
          text(element(parent, "code"), (token as Tokens.Codespan).text);
          break;
        case "br":
          element(parent, "br");
          break;
        case "link":
          link(parent, token as Tokens.Link);
          break;
        case "image":
          image(parent, token as Tokens.Image);
          break;
        case "checkbox":
          text(parent, (token as Tokens.Checkbox).checked ? "☑ " : "☐ ");
          break;
        case "html":
          text(parent, (token as Tokens.Tag).text); // raw HTML: its text
          break;
        default:
          text(parent, t.raw);
      }
    }
  }

  function link(parent: N, token: Tokens.Link): void {
    let href: string;
    try {
      href = encodeURI(token.href).replace(/%25/g, "%"); // marked's cleanUrl
    } catch {
      if (token.autolink) text(parent, token.text);
      else inline(parent, token.tokens);
      return;
    }
    const attributes: [string, string][] = [["href", token.autolink ? href : decoded(href)]];
    if (token.title) attributes.push(["title", decoded(token.title)]);
    const a = element(parent, "a", attributes);
    if (token.autolink) text(a, token.text);
    else inline(a, token.tokens);
    const kept = attributes[0]?.[1] ?? "";
    if (allowedAttribute("a", "href", kept) !== null && opensOutside(kept)) {
      sink.attribute(a, "target", "_blank");
      sink.attribute(a, "rel", "noopener noreferrer");
    }
  }

  function image(parent: N, { href, title, text: alt }: Tokens.Image): void {
    // As lib/markdownParse's renderer: data: images show, others become a link to them.
    const label = alt || href;
    if (DATA_IMAGE.test(href)) {
      const attributes: [string, string][] = [["src", href], ["alt", label]];
      if (title) attributes.push(["title", title]);
      element(parent, "img", attributes);
    } else if (SAFE_URL.test(href)) {
      const a = element(parent, "a", [["href", href]]);
      text(a, `🖼 ${label}`);
      sink.attribute(a, "target", "_blank");
      sink.attribute(a, "rel", "noopener noreferrer");
    } else {
      text(parent, `🖼 ${label}`);
    }
  }

  blocks(root, tokens);
}
