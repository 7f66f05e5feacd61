// The HTML our Markdown renderer made, as safe nodes for the page, without DOMPurify: parsed
// once by the browser in an inert <template> (no script runs, nothing loads), then every element
// and attribute checked against lib/markdownPolicy (an allowlist of exactly what the renderer
// makes, narrower than the DOMPurify rules it replaces here). The nodes are used as parsed,
// never serialized and parsed again, so nothing can change meaning between the check and the
// page (mutation XSS needs that second parse).
//
// Why not DOMPurify here: it made a new document per message and walked every node with its
// general rules, about half of the time a conversation took to open (issue 16 item 17); this
// check is a few microseconds a message. Raw HTML in the Markdown never gets here as HTML
// (lib/markdownParse makes it text): this is the second line of defence, and it only keeps
// what the first one produces. Streamed blocks still go through DOMPurify (lib/markdown.ts).

import { allowedAttribute, allowedTag, opensOutside } from "./markdownPolicy";

/**
 * `html` (the renderer's output) as inert nodes, everything not allowed removed: a template's
 * content, to be copied into the page with `document.importNode(nodes, true)` (one copy per use;
 * the kept nodes stay untouched by the page's decorations).
 */
export function safeNodes(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  clean(template.content);
  return template.content;
}

// Comments (and processing instructions, should any parse): never ours. Elements are listed by
// querySelectorAll (one native call); the walker only looks for these, skipping text natively.
const NOT_ELEMENTS = NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION;
const HTML_NS = "http://www.w3.org/1999/xhtml";

function clean(root: DocumentFragment): void {
  const walker = document.createTreeWalker(root, NOT_ELEMENTS);
  const drop: Node[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) drop.push(node);
  for (const node of drop) node.parentNode?.removeChild(node);
  const flatten: Element[] = [];
  for (const element of root.querySelectorAll("*")) {
    const tag = element.localName;
    if (element.namespaceURI !== HTML_NS || !allowedTag(tag)) {
      flatten.push(element);
      continue;
    }
    if (!element.hasAttributes()) continue;
    for (const attribute of [...element.attributes]) {
      const kept = allowedAttribute(tag, attribute.name, attribute.value);
      if (kept === null) element.removeAttribute(attribute.name);
      else if (kept !== attribute.value) element.setAttribute(attribute.name, kept);
    }
    if (tag === "a" && element.hasAttribute("href") && opensOutside(element.getAttribute("href") ?? "")) {
      element.setAttribute("target", "_blank");
      element.setAttribute("rel", "noopener noreferrer");
    }
  }
  // An element that is not ours becomes its text (outermost first: its insides go with it).
  for (const element of flatten) element.replaceWith(element.textContent ?? "");
}
