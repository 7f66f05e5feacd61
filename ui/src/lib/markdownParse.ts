// Markdown → HTML string, before sanitizing (lib/markdown.ts sanitizes it; this half needs no
// DOM, so Vitest checks it directly).
//
// Raw HTML is never HTML here: an agent's (or the person's) `<style>`, `<math>`, `<!--`,
// `<textarea>`… is shown as the text it is. Block HTML is not recognised at all (marked's
// block `html` rule would otherwise swallow everything after an unclosed `<style>` or `<!--`
// into one raw block, later paragraphs and code blocks included), and inline tags become text
// (their "raw block" state would otherwise pass the text after `<script>` through unescaped).
// The `html` renderers escape too, should any HTML token still be made.

import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import typescript from "highlight.js/lib/languages/typescript";
import yaml from "highlight.js/lib/languages/yaml";
import { Lexer, Marked, type Token, type Tokens } from "marked";

hljs.registerLanguage("python", python);
hljs.registerLanguage("javascript", javascript);
hljs.registerLanguage("typescript", typescript);
hljs.registerLanguage("bash", bash);
hljs.registerLanguage("json", json);
hljs.registerLanguage("yaml", yaml);
hljs.registerLanguage("diff", diff);
hljs.registerLanguage("go", go);
hljs.registerLanguage("rust", rust);
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });

export { hljs };

export const SAFE_URL = /^(?:https?:|mailto:)/i;
export const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);/i;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The language highlight.js knows for a fence's info string, or "" (shown as plain text). */
export function codeLanguage(info: string | undefined): string {
  const name = (info ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return name && hljs.getLanguage(name) ? name : "";
}

const renderer = {
  code({ text, lang }: Tokens.Code): string {
    const language = codeLanguage(lang);
    const label = (lang ?? "").trim().split(/\s+/)[0] ?? "";
    const attrs = language ? ` class="hljs language-${language}" data-lang="${language}"` : ` class="hljs"`;
    const body = escapeHtml(text.replace(/\n$/, ""));
    const tag = label ? `<span class="code-lang">${escapeHtml(label)}</span>` : "";
    const labelled = label ? " labelled" : "";
    return `<div class="code-block${labelled}">${tag}<pre><code${attrs}>${body}</code></pre></div>\n`;
  },
  image({ href, title, text }: Tokens.Image): string {
    const alt = escapeHtml(text || href);
    if (DATA_IMAGE.test(href)) {
      const t = title ? ` title="${escapeHtml(title)}"` : "";
      return `<img src="${escapeHtml(href)}" alt="${alt}"${t}>`;
    }
    if (SAFE_URL.test(href)) return `<a href="${escapeHtml(href)}">🖼 ${alt}</a>`;
    return `🖼 ${alt}`;
  },
  checkbox({ checked }: Tokens.Checkbox): string {
    return checked ? "☑ " : "☐ ";
  },
  html({ text, block }: Tokens.HTML | Tokens.Tag): string {
    return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
  },
};

// No HTML tokens: raw HTML stays in paragraphs as text (see the top of this file). Returning
// undefined means "not HTML here"; marked then tries its other rules (paragraph, text).
const tokenizer = {
  html(): undefined {
    return undefined;
  },
  tag(): undefined {
    return undefined;
  },
};

// Agents write Markdown; people type in a chat box, where a new line is a new line (`breaks`).
const marked = new Marked({ async: false, gfm: true, breaks: false, renderer, tokenizer });
const markedBreaks = new Marked({ async: false, gfm: true, breaks: true, renderer, tokenizer });

/** marked's tokens for `markdown` (lib/markdownDom builds nodes from them). */
export function lexMarkdown(markdown: string, breaks = false): Token[] {
  return Lexer.lex(markdown, (breaks ? markedBreaks : marked).defaults);
}

/** HTML for `markdown`, with any raw HTML in it escaped (still to be sanitized). */
export function parseMarkdown(markdown: string, breaks = false): string {
  return (breaks ? markedBreaks : marked).parse(markdown, { async: false });
}
