// Raw HTML in Markdown (an agent's or the person's) shows as text and never hides what follows:
// each case of the corpus is followed by a paragraph and a fenced code block, which must be in
// the output as a paragraph and a code block. The sanitizer after this step is checked in the
// real window (tests/e2e/test_ui_markdown_safety.py).

import { describe, expect, test } from "vitest";
import { parseMarkdown } from "./markdownParse";

const CORPUS = [
  "<style>p { display: none }",
  "<style>\np { display: none }\n</style>",
  "<math><mi>x</mi>",
  "<script>alert(1)</script>",
  "<script>",
  "<svg><foreignObject><p>hidden",
  "<!-- an unclosed comment",
  "text before <!-- an inline comment",
  "<textarea>everything after",
  "<title>a title",
  "<xmp>old raw text",
  "<noscript><p>shown without scripts",
  "<iframe src=https://example.com>",
  "<div>an unclosed div",
  "<pre>an unclosed pre",
  "<template><p>inert",
  "<plaintext>all the rest",
  "<![CDATA[ data",
  "<?php echo 1; ?>",
  "<b>bold <i>unclosed",
  '<img src=x onerror="alert(1)">',
  "<a href=javascript:alert(1)>link",
];

// The only tags our renderer makes (anything else would be the message's own HTML).
const OURS = new Set([
  "p", "div", "span", "pre", "code", "a", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
  "em", "strong", "del", "br", "hr", "blockquote", "table", "thead", "tbody", "tr", "th", "td", "img",
]);

function tagsIn(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => (m[1] ?? "").toLowerCase());
}

function message(raw: string): string {
  return `${raw}\n\nThe paragraph after.\n\n\`\`\`python\nprint("the code after")\n\`\`\`\n\nThe end.\n`;
}

describe("raw HTML in Markdown", () => {
  for (const breaks of [false, true]) {
    const who = breaks ? "the person's message" : "an agent's message";
    for (const raw of CORPUS) {
      test(`${JSON.stringify(raw)} in ${who} shows as text and hides nothing after it`, () => {
        const html = parseMarkdown(message(raw), breaks);
        expect(html).toContain("<p>The paragraph after.</p>");
        expect(html).toContain('<code class="hljs language-python" data-lang="python">print(&quot;the code after&quot;)</code>');
        expect(html).toContain("<p>The end.</p>");
        for (const tag of tagsIn(html)) expect(OURS).toContain(tag);
        const firstTag = /^<([a-zA-Z!?][\w-]*)/.exec(raw)?.[1] ?? "";
        if (firstTag) expect(html).toContain(`&lt;${firstTag}`);
      });
    }
  }

  test("raw HTML inside a list item, a quote and a table cell stays text", () => {
    const html = parseMarkdown("- <style>x\n- item\n\n> <math>y\n\n| a |\n|---|\n| <svg> |\n\nafter\n");
    expect(html).toContain("&lt;style&gt;x");
    expect(html).toContain("&lt;math&gt;y");
    expect(html).toContain("&lt;svg&gt;");
    expect(html).toContain("<p>after</p>");
    for (const tag of tagsIn(html)) expect(OURS).toContain(tag);
  });

  test("the text after an inline script tag is escaped too", () => {
    const html = parseMarkdown("a <script> b <img src=x onerror=alert(1)> c");
    expect(tagsIn(html)).toEqual(["p", "p"]);
  });

  test("autolinks and Markdown around raw HTML still work", () => {
    const html = parseMarkdown("<https://example.com> **bold** <u>u</u> `<code>`");
    expect(html).toContain('<a href="https://example.com">https://example.com</a>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("&lt;u&gt;u&lt;/u&gt;");
    expect(html).toContain("<code>&lt;code&gt;</code>");
  });
});
