// Markdown from agents, made safe to show. Agent output is untrusted (DESIGN §4).
// - A finished message: marked's tokens (lib/markdownParse: raw HTML is text) → nodes built
//   with DOM calls from a fixed set of elements, every attribute through lib/markdownPolicy
//   (lib/markdownDom, `renderMarkdownNodes`): nothing of the message is ever parsed as HTML.
// - A streamed answer's blocks: marked → HTML string → DOMPurify (the last line of defence);
//   `{@html}` is only ever given what `renderMarkdown` returns.
// Both give the same nodes (lib/markdownDom.test.ts compares them), with these rules:
//
// - Code blocks are escaped text in the HTML; `highlightCode` then colours them in the page by
//   building <span>s from highlight.js's token tree (core + a handful of languages) with DOM
//   calls: no HTML is parsed there, and the sanitizer has hundreds fewer nodes to walk.
// - Links keep http, https and mailto targets only, and open outside (target=_blank; pywebview
//   sends them to the system browser). Images show only when they are data: images (the CSP
//   forbids fetching others anyway); any other image becomes a link to it.
// - One in-app link is kept, in exactly this form: a message link
//   `sidekicks://message/<channel>/<message>` (lib/messageLinks.ts), also
//   when written as plain text; a click on it opens that conversation, nothing more.
// - No style, no class but highlight.js's, no id or name (DOM clobbering), no forms, frames,
//   objects, SVG or MathML.

import DOMPurify from "dompurify";
import type { Token } from "marked";
import { DATA_IMAGE, SAFE_URL, codeLanguage, escapeHtml, hljs, lexMarkdown, parseMarkdown } from "./markdownParse";
import { linkMessageLinks, parseMessageLink } from "./messageLinks";
import { RenderCache } from "./markdownCache";
import { buildMarkdown, type Sink } from "./markdownDom";

export { codeLanguage, escapeHtml };

// The classes of our code blocks (a copy button is added to those, highlighting to the code).
const KEPT_CLASS = /^(?:hljs|language-[\w+#.-]+|code-block|labelled|code-lang)$/;

// highlight.js's token tree (what its own HTML renderer walks): text, and scopes around text.
interface TokenNode {
  scope?: string;
  children: (string | TokenNode)[];
}
interface Walkable {
  walk(builder: { addText(text: string): void; openNode(node: TokenNode): void; closeNode(node: TokenNode): void }): void;
}

const TREE_CACHE = 400;
const trees = new Map<string, Walkable | null>();

function tokenTree(code: string, language: string): Walkable | null {
  const key = `${language}\u0000${code}`;
  const hit = trees.get(key);
  if (hit !== undefined) return hit;
  let tree: Walkable | null = null;
  try {
    const emitter = hljs.highlight(code, { language, ignoreIllegals: true })._emitter as unknown as Partial<Walkable>;
    tree = typeof emitter.walk === "function" ? (emitter as Walkable) : null;
  } catch {
    tree = null;
  }
  trees.set(key, tree);
  if (trees.size > TREE_CACHE) {
    const oldest = trees.keys().next().value;
    if (oldest !== undefined) trees.delete(oldest);
  }
  return tree;
}

/** highlight.js's class names for a scope ("title.function" → "hljs-title function_"). */
function scopeClass(scope: string): string {
  if (scope.startsWith("language:")) return `language-${scope.slice(9)}`;
  const [first, ...rest] = scope.split(".");
  return [`hljs-${first}`, ...rest.map((piece, i) => `${piece}${"_".repeat(i + 1)}`)].join(" ");
}

/**
 * Colours a code element rendered by renderMarkdown (`code[data-lang]`): its text becomes the
 * same text in <span class="hljs-…">s, made with createElement and text nodes (nothing parsed).
 */
export function highlightCode(code: HTMLElement): void {
  if (code.dataset.highlighted !== undefined) return;
  code.dataset.highlighted = "";
  const language = codeLanguage(code.dataset.lang);
  if (!language) return;
  const tree = tokenTree(code.textContent ?? "", language);
  if (!tree) return;
  const root = document.createDocumentFragment();
  const stack: (DocumentFragment | HTMLElement)[] = [root];
  tree.walk({
    addText(text) {
      stack[stack.length - 1]?.append(text);
    },
    openNode(node) {
      if (!node.scope) return;
      const span = document.createElement("span");
      span.className = scopeClass(node.scope);
      stack[stack.length - 1]?.append(span);
      stack.push(span);
    },
    closeNode(node) {
      if (node.scope && stack.length > 1) stack.pop();
    },
  });
  code.replaceChildren(root);
}


const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "style", "script", "iframe", "frame", "frameset", "object", "embed", "applet", "form",
    "input", "button", "textarea", "select", "option", "svg", "math", "link", "meta", "base",
    "template", "noscript", "video", "audio", "source", "track", "dialog", "portal",
  ],
  FORBID_ATTR: ["style", "id", "name", "srcset", "action", "formaction", "xlink:href", "ping"],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|sidekicks:\/\/message\/)/i, // the last: checked below
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SANITIZE_DOM: true,
  KEEP_CONTENT: true,
};

// HTML strings for a streamed answer's blocks (finished messages: lib/markdownDom).
function makePurifier(): ReturnType<typeof DOMPurify> {
  const purifier = DOMPurify(window);
  // (No uponSanitizeAttribute hook: with one, DOMPurify copies its attribute allowlist on every
  // call.)
  purifier.addHook("afterSanitizeAttributes", (node) => {
    const classes = node.getAttribute("class");
    if (classes !== null) {
      // Only our code blocks' classes: agent HTML must not borrow the app's (fake buttons…).
      const kept = classes.split(/\s+/).filter((c) => KEPT_CLASS.test(c));
      if (kept.length > 0) node.setAttribute("class", kept.join(" "));
      else node.removeAttribute("class");
    }
    if (node.tagName === "A") {
      const href = node.getAttribute("href");
      if (parseMessageLink(href)) return; // in the app: no new window (see linkClicks.ts)
      if (href !== null && !SAFE_URL.test(href.trim())) node.removeAttribute("href");
      if (node.hasAttribute("href")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    } else if (node.tagName === "IMG") {
      const src = node.getAttribute("src");
      if (src !== null && !DATA_IMAGE.test(src.trim())) node.removeAttribute("src");
    }
  });
  // Set once: a config given to each sanitize() call would be parsed again every time (sets of
  // hundreds of tag names), which costs more than sanitizing a message.
  purifier.setConfig(PURIFY_CONFIG);
  return purifier;
}

const purifier = makePurifier();

/** `html` with everything unsafe removed (see the top of this file). */
export function sanitize(html: string): string {
  return purifier.sanitize(html);
}

// Rendering the same text twice (scrolling back to a message) costs nothing.
const strings = new RenderCache<string>(600);

export interface RenderOptions {
  /** False for a text that will not be seen again (the growing end of a streamed answer). */
  keep?: boolean;
  /** Single new lines are line breaks (what a person typed). */
  breaks?: boolean;
}

/** The cache key of `markdown` rendered with these options. */
function renderKey(markdown: string, breaks: boolean): string {
  return breaks ? `\u0001${markdown}` : markdown;
}

/** Safe HTML for `markdown`. */
export function renderMarkdown(markdown: string, { keep = true, breaks = false }: RenderOptions = {}): string {
  return strings.get(renderKey(markdown, breaks), () => sanitize(parseMarkdown(markdown, breaks)), keep);
}

// The page's document as lib/markdownDom's sink. Character references are decoded by the
// browser in an inert template, from text whose `<` and `>` are escaped: never markup.
const decoder = document.createElement("template");
const pageSink: Sink<Node> = {
  element: (tag) => document.createElement(tag),
  text: (data) => document.createTextNode(data),
  attribute: (element, name, value) => (element as Element).setAttribute(name, value),
  append: (parent, child) => void parent.appendChild(child),
  decode: (escaped) => {
    decoder.innerHTML = escaped.replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return decoder.content.textContent ?? "";
  },
};

/** Safe nodes for `markdown`, built from its tokens (lib/markdownDom), message links linked. */
export function buildMarkdownNodes(markdown: string, breaks = false): DocumentFragment {
  return nodesOf(lexMarkdown(markdown, breaks));
}

function nodesOf(tokens: Token[]): DocumentFragment {
  const nodes = document.createDocumentFragment();
  buildMarkdown(tokens, pageSink, nodes);
  nodes.normalize(); // adjacent texts in one node, as parsed HTML has them (linkMessageLinks)
  linkMessageLinks(nodes);
  return nodes;
}

// A finished message is lexed once: its first render inserts the nodes built from its tokens,
// and a copy of them is built for later when the page is idle (not at once: copying every node
// took a sixth of the time a conversation took to open). Every later render (reopening the
// conversation, another one, scrolling back to it) inserts a copy of that kept copy (or, before
// it is made, nodes built from the kept tokens). Room for a few conversations' windows (100
// messages each when opened).
interface Kept {
  tokens: Token[] | null;
  nodes: DocumentFragment | null;
}
const fragments = new RenderCache<Kept>(500);
const toCopy: Kept[] = [];

/** Safe nodes for `markdown` (fresh ones, the caller's to insert and decorate). */
export function renderMarkdownNodes(markdown: string, { breaks = false }: { breaks?: boolean } = {}): DocumentFragment {
  let built: DocumentFragment | null = null;
  const kept = fragments.get(renderKey(markdown, breaks), () => {
    const tokens = lexMarkdown(markdown, breaks);
    built = nodesOf(tokens);
    return { tokens, nodes: null };
  });
  if (built) {
    copyWhenIdle(kept);
    return built;
  }
  if (kept.nodes) return kept.nodes.cloneNode(true) as DocumentFragment;
  return nodesOf(kept.tokens ?? lexMarkdown(markdown, breaks));
}

/** Makes `kept`'s copy of its nodes in an idle moment (with others waiting, as many as fit). */
function copyWhenIdle(kept: Kept): void {
  toCopy.push(kept);
  if (toCopy.length === 1) whenIdle(copyKept);
}

function copyKept(deadline?: IdleDeadline): void {
  do {
    const kept = toCopy.shift();
    if (!kept) return;
    if (kept.tokens && !kept.nodes) kept.nodes = nodesOf(kept.tokens);
    kept.tokens = null; // the nodes stand for them now
  } while (deadline && deadline.timeRemaining() > 4);
  if (toCopy.length) whenIdle(copyKept);
}

/** requestIdleCallback, or a timer where there is none (WebKit on macOS). */
function whenIdle(run: (deadline?: IdleDeadline) => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(run, { timeout: 1000 });
  else window.setTimeout(run, 50);
}

/**
 * `markdown` cut into blocks at blank lines outside fenced code, so that a message being
 * streamed re-renders only its last block. Joined back, the blocks give `markdown` exactly.
 */
export function splitBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let start = 0;
  let fence = "";
  let pos = 0;
  let previousBlank = false;
  while (pos < markdown.length) {
    let end = markdown.indexOf("\n", pos);
    if (end < 0) end = markdown.length;
    const line = markdown.slice(pos, end);
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    const blank = line.trim() === "";
    if (fence) {
      if (marker && marker[1]?.[0] === fence[0] && (marker[1]?.length ?? 0) >= fence.length) fence = "";
    } else if (marker?.[1]) {
      fence = marker[1];
    } else if (!blank && previousBlank && pos > start && !/^(?: {2,}|\t)/.test(line)) {
      // A block starts here unless it continues a list item or a quote (indented / lazy).
      blocks.push(markdown.slice(start, pos));
      start = pos;
    }
    previousBlank = blank && !fence;
    pos = end + 1;
  }
  if (start < markdown.length) blocks.push(markdown.slice(start));
  return blocks;
}
