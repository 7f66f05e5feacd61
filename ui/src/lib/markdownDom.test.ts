// Nodes built from marked's tokens (lib/markdownDom) are the nodes the browser makes of the
// renderer's HTML (lib/markdownParse): both serialized the same way, for a corpus of Markdown.

import { describe, expect, test } from "vitest";
import { buildMarkdown, type Sink } from "./markdownDom";
import { escapeHtml, lexMarkdown, parseMarkdown } from "./markdownParse";

interface Fake {
  tag?: string;
  attributes: [string, string][];
  children: Fake[];
  data?: string;
}

const VOID = new Set(["br", "hr", "img"]);
const REFERENCES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", copy: "©" };

const sink: Sink<Fake> = {
  element: (tag) => ({ tag, attributes: [], children: [] }),
  text: (data) => ({ data, attributes: [], children: [] }),
  attribute: (element, name, value) => void element.attributes.push([name, value]),
  append: (parent, child) => void parent.children.push(child),
  decode: (escaped) => {
    expect(escaped).not.toMatch(/[<>]/); // never markup
    return escaped.replace(/&(#?\w+);/g, (all, name: string) =>
      name.startsWith("#") && name !== "#39" ? String.fromCodePoint(Number(name.slice(1))) : (REFERENCES[name] ?? all),
    );
  },
};

function serialize(node: Fake): string {
  if (node.data !== undefined) return escapeHtml(node.data);
  const inner = node.children.map(serialize).join("");
  if (!node.tag) return inner;
  const attributes = node.attributes.map(([n, v]) => ` ${n}="${escapeHtml(v)}"`).join("");
  return VOID.has(node.tag) ? `<${node.tag}${attributes}>` : `<${node.tag}${attributes}>${inner}</${node.tag}>`;
}

function built(markdown: string, breaks = false): Fake {
  const root: Fake = { attributes: [], children: [] };
  buildMarkdown(lexMarkdown(markdown, breaks), sink, root);
  return root;
}

/** The renderer's HTML with what the sanitizer adds to links that open outside. */
function expected(markdown: string, breaks = false): string {
  return parseMarkdown(markdown, breaks).replace(
    /<a href="((?:https?:|mailto:)[^"]*)"( title="[^"]*")?>/g,
    '<a href="$1"$2 target="_blank" rel="noopener noreferrer">',
  );
}

const CORPUS: [string, string][] = [
  ["headings", "# One\n\n## Two *em*\n\n###### Six"],
  ["a paragraph with inline parts", "Some *em*, **strong**, ~~del~~, `code <b>`, and a \\* star; it's \"quoted\" & done."],
  ["line breaks", "two spaces  \nthen a line\nand another"],
  ["links", '[site](https://example.com/a?b=1&c=2 "a title") <https://a.example/x&y> www.example.com and mailto:me@example.com'],
  ["lists", "- a\n- b\n  - nested\n\n1. one\n2. two\n\n3. three\n4. four\n\n- loose\n\n- items"],
  ["tasks", "- [x] done\n- [ ] to do"],
  ["a quote", "> quoted *text*\n>\n> - a list in it"],
  ["a table", "| a | b | c |\n|:--|:-:|--:|\n| 1 | **2** | `3` |\n| x |"],
  ["a table without rows", "| a | b |\n|---|---|"],
  ["code blocks", "```python\nprint('x' < 1)\n```\n\n```\nplain & <raw>\n```\n\n```unknown\nx\n```\n\n    indented"],
  ["raw HTML as text", "<div>a block</div>\n\ntext with <b>inline</b> and <!-- comment -->"],
  ["images", "![pixel](data:image/png;base64,iVBORw0KGgo= \"t\") ![remote](https://example.com/a.png) ![local](a.png)"],
  ["a rule", "above\n\n---\n\nbelow"],
  ["link definitions", "[ref][1]\n\n[1]: https://example.com/ref"],
];

describe("the nodes are those of the renderer's HTML", () => {
  test.each(CORPUS)("%s", (_name, markdown) => {
    for (const breaks of [false, true]) {
      const html = serialize(built(markdown, breaks));
      expect(html).toBe(expected(markdown, breaks));
    }
  });
});

test("character references in text mean what they would in the HTML", () => {
  const root = built("&copy; &amp; &#169; &notanentity; AT&T [x](https://a.example/?a=1&amp;b=2 \"&quot;t&quot;\")");
  const p = root.children[0] as Fake;
  expect(p.children[0]?.data).toBe("© & © &notanentity; AT&T ");
  expect(p.children[1]?.attributes.slice(0, 2)).toEqual([["href", "https://a.example/?a=1&b=2"], ["title", '"t"']]);
});

describe("what the HTML would have had and the nodes do not", () => {
  test("a link to anything but http, https, mailto or a message has no target", () => {
    const html = serialize(built("[x](javascript:alert(1)) [y](relative/path) [z](sidekicks://settings)"));
    expect(html).toBe("<p><a>x</a> <a>y</a> <a>z</a></p>\n");
  });

  test("a message link opens in the app (no target)", () => {
    const link = "sidekicks://message/01JABCDEFGHJKMNPQRSTVWXYZ0/01JABCDEFGHJKMNPQRSTVWXYZ1";
    expect(serialize(built(`[m](${link})`))).toBe(`<p><a href="${link}">m</a></p>\n`);
  });

  test("text that looks like markup is text, whatever it holds", () => {
    const root = built("<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> &lt;b&gt;");
    const tags: string[] = [];
    const walk = (node: Fake): void => {
      if (node.tag) tags.push(node.tag);
      node.children.forEach(walk);
    };
    walk(root);
    expect(tags).toEqual(["p", "p"]);
  });
});
