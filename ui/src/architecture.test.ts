// The folders' import rules (ui/src/README.md): lib/ is a leaf (shared state, helpers and the
// widgets of lib/ui/, importing no feature), frame/ is the window's shell (only App.svelte
// imports it), and no two folders import each other, however indirectly — frame/ and
// conversation/ once did, through the widgets frame/ held.
import { describe, expect, test } from "vitest";

const sources = import.meta.glob<string>(["./**/*.ts", "./**/*.svelte"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const SPECIFIERS = [
  /\bfrom\s*["']([^"']+)["']/g, // import … from "x", export … from "x"
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, // import("x")
  /\bimport\s+["']([^"']+)["']/g, // import "x"
];

/** The relative modules a source file imports (packages and bindings are not folders of src/). */
function importsOf(text: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1] as string)).filter(
    (specifier) => specifier.startsWith("."),
  );
}

/** `specifier` imported from `file`, as a path from src/ ("lib/ui/Icon.svelte"); "" when outside src/. */
function resolvePath(file: string, specifier: string): string {
  const parts = file.split("/").slice(0, -1);
  for (const piece of specifier.split("/")) {
    if (piece === "..") {
      if (parts.length === 0) return "";
      parts.pop();
    } else if (piece !== ".") parts.push(piece);
  }
  return parts.join("/");
}

/** The folder a path belongs to: its first segment, or "root" for App.svelte and main.ts. */
function folderOf(path: string): string {
  return path.includes("/") ? (path.split("/")[0] as string) : "root";
}

/** Folder → the folders it imports, for files given by path from src/ with their text. */
function folderGraph(files: Record<string, string>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [path, text] of Object.entries(files)) {
    const from = folderOf(path);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of importsOf(text)) {
      const target = resolvePath(path, specifier);
      if (target && folderOf(target) !== from) edges.add(folderOf(target));
    }
  }
  return graph;
}

/** One cycle of the graph as the folders walked ("a → b → a"), or "" when it has none. */
function findCycle(graph: Map<string, Set<string>>): string {
  const done = new Set<string>();
  const walk = (node: string, path: string[]): string => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node].join(" → ");
    if (done.has(node)) return "";
    for (const next of graph.get(node) ?? []) {
      const cycle = walk(next, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return "";
  };
  for (const node of graph.keys()) {
    const cycle = walk(node, []);
    if (cycle) return cycle;
  }
  return "";
}

interface Crossing {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

/** Every import of `files` from one folder into another. */
function crossings(files: Record<string, string>): Crossing[] {
  return Object.entries(files).flatMap(([file, text]) =>
    importsOf(text)
      .map((specifier) => ({ file, specifier, from: folderOf(file), to: folderOf(resolvePath(file, specifier)) }))
      .filter(({ specifier, file: path, from, to }) => resolvePath(path, specifier) !== "" && from !== to),
  );
}

function lines(found: Crossing[]): string[] {
  return found.map(({ file, specifier }) => `${file} imports ${specifier}`);
}

// This file's own examples are not imports.
const files = Object.fromEntries(
  Object.entries(sources)
    .filter(([path]) => path !== "./architecture.test.ts")
    .map(([path, text]) => [path.slice(2), text]),
);

describe("the checker itself", () => {
  test("reads every kind of import, packages left out", () => {
    const text = `import A from "./A.svelte";\nimport { b } from '../lib/b';\nexport { c } from "./c";
      import "./side";\nconst d = import("../settings/D.svelte");\nimport { mount } from "svelte";`;
    expect(importsOf(text)).toEqual(["./A.svelte", "../lib/b", "./c", "../settings/D.svelte", "./side"]);
  });

  test("resolves paths against the importing file", () => {
    expect(resolvePath("conversation/session/ChoiceMenu.svelte", "../../lib/ui/Menu.svelte")).toBe(
      "lib/ui/Menu.svelte",
    );
    expect(resolvePath("lib/agents.svelte.ts", "../../bindings")).toBe("");
    expect(folderOf("App.svelte")).toBe("root");
  });

  test("finds a cycle through several folders, and none where there is none", () => {
    const cyclic = folderGraph({
      "frame/Sidebar.svelte": 'import X from "../inbox/X.svelte";',
      "inbox/X.svelte": 'import Y from "../conversation/Y.svelte";',
      "conversation/Y.svelte": 'import Icon from "../frame/Icon.svelte";',
    });
    expect(findCycle(cyclic)).toBe("frame → inbox → conversation → frame");
    const acyclic = folderGraph({
      "frame/Sidebar.svelte": 'import X from "../inbox/X.svelte";',
      "inbox/X.svelte": 'import Icon from "../lib/ui/Icon.svelte";',
    });
    expect(findCycle(acyclic)).toBe("");
  });
});

describe("ui/src's folders", () => {
  test("were all read", () => {
    expect(Object.keys(files)).toContain("lib/ui/Icon.svelte");
    expect(Object.keys(files)).toContain("frame/Frame.svelte");
    expect(Object.keys(files).length).toBeGreaterThan(100);
  });

  test("lib/ imports no feature folder", () => {
    expect(lines(crossings(files).filter((c) => c.from === "lib"))).toEqual([]);
  });

  test("frame/ is the shell: only App.svelte imports it", () => {
    expect(lines(crossings(files).filter((c) => c.to === "frame" && c.from !== "root"))).toEqual([]);
  });

  test("conversation/ does not import frame/ (frame/ mounts it, never the other way)", () => {
    const between = crossings(files).filter((c) => c.from === "conversation" && c.to === "frame");
    expect(lines(between)).toEqual([]);
  });

  test("no folder imports itself back through others", () => {
    expect(findCycle(folderGraph(files))).toBe("");
  });
});
