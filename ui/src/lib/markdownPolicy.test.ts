// The allowlist finished messages are checked against (lib/markdownDom applies it to every
// attribute it writes): everything the renderer makes passes, anything else does not.

import { describe, expect, test } from "vitest";
import { allowedAttribute, allowedTag, opensOutside } from "./markdownPolicy";
import { parseMarkdown } from "./markdownParse";

const LINK = "sidekicks://message/01JABCDEFGHJKMNPQRSTVWXYZ0/01JABCDEFGHJKMNPQRSTVWXYZ1";

/** Every tag and attribute (name, value) in `html`, as the renderer wrote them. */
function parts(html: string): { tags: string[]; attributes: [string, string, string][] } {
  const tags: string[] = [];
  const attributes: [string, string, string][] = [];
  for (const [, tag, rest] of html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/g)) {
    tags.push(tag as string);
    for (const [, name, value] of (rest as string).matchAll(/([a-z-]+)="([^"]*)"/g)) {
      attributes.push([tag as string, name as string, (value as string).replace(/&amp;/g, "&")]);
    }
  }
  return { tags, attributes };
}

describe("what the renderer makes", () => {
  const markdown = [
    "# One\n\n## Two\n\n### Three",
    "*em* **strong** ~~del~~ `code` [link](https://example.com \"title\") <https://a.example>",
    "- a\n- [x] done\n\n3. three\n4. four",
    "> quoted\n\n---",
    "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
    "```python\nprint(1)\n```\n\n```\nplain\n```\n\n```unknown-lang\nx\n```",
    "![pixel](data:image/png;base64,iVBORw0KGgo=) ![remote](https://example.com/a.png)",
    `[mail](mailto:a@example.com) [in the app](${LINK})`,
    "line one\nline two",
  ].join("\n\n");

  test.each([false, true])("passes the policy unchanged (breaks: %s)", (breaks) => {
    const { tags, attributes } = parts(parseMarkdown(markdown, breaks));
    expect(tags.filter((tag) => !allowedTag(tag))).toEqual([]);
    for (const [tag, name, value] of attributes) expect(allowedAttribute(tag, name, value)).toBe(value);
    expect(new Set(tags)).toEqual(
      new Set(["h1", "h2", "h3", "p", "em", "strong", "del", "code", "a", "ul", "li", "ol", "blockquote",
        "hr", "table", "thead", "tr", "th", "tbody", "td", "div", "span", "pre", "img", ...(breaks ? ["br"] : [])]),
    );
  });
});

describe("what goes", () => {
  test.each([
    "script", "style", "iframe", "object", "embed", "form", "input", "button", "textarea", "select",
    "svg", "math", "template", "noscript", "xmp", "plaintext", "title", "link", "meta", "base",
    "video", "audio", "dialog", "frame", "foreignobject", "body", "html",
  ])("a <%s> element", (tag) => {
    expect(allowedTag(tag)).toBe(false);
  });

  test.each([
    ["a", "href", "javascript:alert(1)"],
    ["a", "href", " JaVaScRiPt:alert(1)"],
    ["a", "href", "java\nscript:alert(1)"],
    ["a", "href", "data:text/html,<script>alert(1)</script>"],
    ["a", "href", "vbscript:x"],
    ["a", "href", "file:///etc/passwd"],
    ["a", "href", "sidekicks://settings"],
    ["a", "href", "sidekicks://message/x/y"],
    ["a", "href", "relative/path"],
    ["a", "onclick", "alert(1)"],
    ["a", "target", "_self"],
    ["img", "src", "https://example.com/track.png"],
    ["img", "src", "data:image/svg+xml,<svg onload=alert(1)>"],
    ["img", "onerror", "alert(1)"],
    ["img", "srcset", "https://example.com/a.png 1x"],
    ["p", "style", "display:none"],
    ["p", "id", "composer-input"],
    ["div", "id", "x"],
    ["div", "name", "x"],
    ["span", "class", "btn primary"],
    ["div", "class", "copy-code"],
    ["code", "data-lang", "\"><img src=x>"],
    ["ol", "start", "1;x"],
    ["td", "align", "left;position:fixed"],
    ["pre", "class", "hljs"],
    ["h1", "title", "x"],
  ])("%s %s=%j", (tag, name, value) => {
    expect(allowedAttribute(tag, name, value)).toBeNull();
  });

  test("classes other than our code blocks' are taken off, ours stay", () => {
    expect(allowedAttribute("div", "class", "code-block labelled btn danger")).toBe("code-block labelled");
    expect(allowedAttribute("code", "class", "hljs language-python sidebar")).toBe("hljs language-python");
  });
});

test("links open outside the app except a message link", () => {
  expect(opensOutside("https://example.com")).toBe(true);
  expect(opensOutside("mailto:a@example.com")).toBe(true);
  expect(opensOutside(LINK)).toBe(false);
});
