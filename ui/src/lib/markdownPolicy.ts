// What a finished message's rendered Markdown may contain: the elements and attributes our
// renderer (lib/markdownParse: marked with raw HTML made text) produces, and nothing else. This
// half needs no DOM (Vitest checks it with a hostile corpus); lib/markdownDom applies it to
// every attribute of the nodes it builds.

import { parseMessageLink } from "./messageLinks";
import { DATA_IMAGE, SAFE_URL } from "./markdownParse";

// The only tags the renderer makes. No style, script, form, frame, object, SVG or MathML (nor
// anything whose content the parser treats as raw text, so nothing can mutate on a re-parse).
const TAGS = new Set([
  "p", "div", "span", "pre", "code", "a", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
  "em", "strong", "del", "br", "hr", "blockquote", "table", "thead", "tbody", "tr", "th", "td", "img",
]);

// The classes of our code blocks (a copy button is added to those, highlighting to the code).
const KEPT_CLASS = /^(?:hljs|language-[\w+#.-]+|code-block|labelled|code-lang)$/;

/** Whether an element named `tag` (lower case) may stay. */
export function allowedTag(tag: string): boolean {
  return TAGS.has(tag);
}

/**
 * The value attribute `name` of a `tag` element keeps (both lower case), or null when it goes.
 * No id or name (DOM clobbering), no style, no event handlers: only these, per element.
 */
export function allowedAttribute(tag: string, name: string, value: string): string | null {
  switch (`${tag} ${name}`) {
    case "a href": {
      const href = value.trim();
      // A message link opens in the app (see linkClicks.ts); others only http(s) and mailto.
      return parseMessageLink(href) || SAFE_URL.test(href) ? value : null;
    }
    case "a title":
    case "img alt":
    case "img title":
      return value;
    case "img src":
      return DATA_IMAGE.test(value.trim()) ? value : null;
    case "ol start":
      return /^\d{1,9}$/.test(value) ? value : null;
    case "th align":
    case "td align":
      return /^(?:left|center|right)$/.test(value) ? value : null;
    case "code data-lang":
      return /^[\w+#.-]{1,40}$/.test(value) ? value : null;
    case "code class":
    case "div class":
    case "span class": {
      // Only our code blocks' classes: agent HTML must not borrow the app's (fake buttons…).
      const kept = value.split(/\s+/).filter((c) => KEPT_CLASS.test(c));
      return kept.length > 0 ? kept.join(" ") : null;
    }
    default:
      return null;
  }
}

/** Whether a link with this (allowed) `href` opens outside the app (target=_blank). */
export function opensOutside(href: string): boolean {
  return !parseMessageLink(href.trim());
}
