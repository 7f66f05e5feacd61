// The kept renders of finished Markdown (lib/markdown: parsed and checked once per text).

import { expect, test } from "vitest";
import { RenderCache } from "./markdownCache";

/** A cache whose renders count how often the text was parsed. */
function counted(size = 10): { cache: RenderCache<string>; parses: string[]; render: (text: string, keep?: boolean) => string } {
  const cache = new RenderCache<string>(size);
  const parses: string[] = [];
  const render = (text: string, keep = true): string =>
    cache.get(text, () => {
      parses.push(text);
      return `<p>${text}</p>`;
    }, keep);
  return { cache, parses, render };
}

test("the same text is parsed once, however often it is rendered", () => {
  const { parses, render } = counted();
  expect(render("## a message")).toBe("<p>## a message</p>");
  expect(render("## a message")).toBe("<p>## a message</p>");
  expect(render("## a message")).toBe("<p>## a message</p>");
  expect(parses).toEqual(["## a message"]);
});

test("a changed text is parsed again, and both are kept", () => {
  const { cache, parses, render } = counted();
  render("first version");
  render("first version, edited");
  render("first version");
  expect(parses).toEqual(["first version", "first version, edited"]);
  expect(cache.count).toBe(2);
});

test("a text still streaming is not kept; once finished it is, and parsed once more only", () => {
  const { cache, parses, render } = counted();
  for (const text of ["Hel", "Hello", "Hello, wor"]) render(text, false);
  expect(cache.count).toBe(0);
  render("Hello, world", true); // the answer ended
  render("Hello, world", true); // reopened
  expect(parses).toEqual(["Hel", "Hello", "Hello, wor", "Hello, world"]);
  expect(cache.has("Hello, world")).toBe(true);
});

test("past its size the least recently used text goes first", () => {
  const { cache, parses, render } = counted(2);
  render("a");
  render("b");
  render("a"); // a is now the most recent
  render("c"); // b goes
  expect(cache.has("a") && cache.has("c")).toBe(true);
  expect(cache.has("b")).toBe(false);
  render("b");
  expect(parses).toEqual(["a", "b", "c", "b"]);
  expect(cache.count).toBe(2);
});
