// Help for the configuration's keys from its JSON Schema (ConfigService.Schema()): which keys are
// valid where the cursor is, judged from the YAML indentation of the lines above it — enough for a
// block-style file like ours, without parsing a half-typed document.

import type { CompletionContext, CompletionResult, Completion } from "@codemirror/autocomplete";
import type { Text } from "@codemirror/state";
import { hoverTooltip, type Tooltip } from "@codemirror/view";

export interface SchemaNode {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: SchemaNode[];
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
}

/** "[]" stands for "an item of the list". */
type Path = string[];

interface ParsedLine {
  lead: number; // spaces before anything
  dash: number; // length of "- " when the line starts a list item, else 0
  key: string | null; // the mapping key on the line, if any
  bare: boolean; // "key:" with nothing after it (it opens a nested block)
  blank: boolean; // empty or only a comment
}

function parseLine(text: string): ParsedLine {
  const m = /^(\s*)(-\s+)?(.*)$/.exec(text) ?? ["", "", "", ""];
  const lead = m[1]?.length ?? 0;
  const dash = m[2]?.length ?? 0;
  const rest = m[3] ?? "";
  const blank = rest === "" || rest.startsWith("#");
  const keyMatch = /^([A-Za-z0-9_$-]+)\s*:(?:\s|$)/.exec(rest + " ");
  const key = keyMatch?.[1] ?? null;
  const bare = key !== null && /^[A-Za-z0-9_$-]+\s*:\s*(#.*)?$/.test(rest);
  return { lead, dash, key, bare, blank: blank && !dash };
}

/** The keys leading to the mapping whose content starts at column `indent` on line `lineNo`. */
function pathAt(doc: Text, lineNo: number, indent: number): Path | null {
  const current = parseLine(doc.line(lineNo).text);
  const path: Path = [];
  let limit = indent;
  if (current.dash && current.lead + current.dash === indent) {
    path.unshift("[]");
    limit = current.lead;
  }
  for (let n = lineNo - 1; n >= 1 && limit > 0; n--) {
    const line = parseLine(doc.line(n).text);
    if (line.blank || line.lead >= limit) continue;
    if (line.dash) {
      path.unshift("[]"); // we are inside this list item
      limit = line.lead;
    } else if (line.bare && line.key) {
      path.unshift(line.key);
      limit = line.lead;
    } else {
      return null; // a shallower line that cannot hold us: the text is not what we think
    }
  }
  return path;
}

function resolve(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let seen = 0;
  while (node?.$ref && seen++ < 16) {
    const name = node.$ref.replace(/^#\/\$defs\//, "");
    node = root.$defs?.[name];
  }
  return node;
}

/** The schema of the mapping at `path`, when it lists its keys. */
function mappingAt(root: SchemaNode, path: Path): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const step of path) {
    node = resolve(root, node);
    node = step === "[]" ? node?.items : node?.properties?.[step];
    if (!node) return undefined;
  }
  node = resolve(root, node);
  return node?.properties ? node : undefined;
}

/** The keys already written in the same mapping as line `lineNo` (so they are not offered twice). */
function siblingKeys(doc: Text, lineNo: number, indent: number): Set<string> {
  const keys = new Set<string>();
  const add = (line: ParsedLine): void => {
    if (line.key && line.lead + line.dash === indent) keys.add(line.key);
  };
  for (let n = lineNo - 1; n >= 1; n--) {
    const line = parseLine(doc.line(n).text);
    if (line.blank) continue;
    if (line.lead + line.dash < indent) break;
    add(line);
    if (line.dash && line.lead + line.dash === indent) break; // the first line of this item
  }
  for (let n = lineNo + 1; n <= doc.lines; n++) {
    const line = parseLine(doc.line(n).text);
    if (line.blank) continue;
    if (line.lead < indent) break; // a shallower line, or the next list item
    add(line);
  }
  return keys;
}

function typeName(root: SchemaNode, node: SchemaNode | undefined): string {
  const resolved = resolve(root, node);
  if (!resolved) return "";
  if (resolved.enum) return resolved.enum.map(String).join(" | ");
  if (resolved.const !== undefined) return String(resolved.const);
  if (resolved.anyOf) return resolved.anyOf.map((n) => typeName(root, n)).join(" | ");
  if (resolved.properties || resolved.type === "object") return "mapping";
  if (resolved.type === "array") return "list";
  return Array.isArray(resolved.type) ? resolved.type.join(" | ") : (resolved.type ?? "");
}

function helpText(node: SchemaNode | undefined): string {
  if (!node) return "";
  const parts = [node.description ?? ""];
  if (node.default !== undefined && node.default !== "") parts.push(`default: ${String(node.default)}`);
  return parts.filter(Boolean).join("\n");
}

/** Completes keys at the start of a line, and the allowed values after `key: `. */
export function schemaCompletion(root: SchemaNode) {
  return (context: CompletionContext): CompletionResult | null => {
    const doc = context.state.doc;
    const line = doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);

    const keySpot = /^(\s*)(-\s+)?([A-Za-z0-9_-]*)$/.exec(before);
    if (keySpot) {
      const typed = keySpot[3] ?? "";
      if (!typed && !context.explicit) return null;
      const indent = (keySpot[1]?.length ?? 0) + (keySpot[2]?.length ?? 0);
      const path = pathAt(doc, line.number, indent);
      const mapping = path && mappingAt(root, path);
      if (!mapping?.properties) return null;
      const taken = siblingKeys(doc, line.number, indent);
      const options: Completion[] = Object.entries(mapping.properties)
        .filter(([key]) => !taken.has(key))
        .map(([key, node]) => {
          const resolved = resolve(root, node);
          const nested = resolved?.properties || resolved?.type === "array" || resolved?.type === "object";
          return {
            label: key,
            type: "property",
            detail: typeName(root, node),
            info: helpText(resolved) || undefined,
            apply: nested ? `${key}:` : `${key}: `,
          };
        });
      return { from: context.pos - typed.length, options, validFor: /^[A-Za-z0-9_-]*$/ };
    }

    const valueSpot = /^(\s*)(-\s+)?([A-Za-z0-9_-]+):\s+["']?([A-Za-z0-9_-]*)$/.exec(before);
    if (valueSpot) {
      const indent = (valueSpot[1]?.length ?? 0) + (valueSpot[2]?.length ?? 0);
      const path = pathAt(doc, line.number, indent);
      const mapping = path && mappingAt(root, path);
      const node = resolve(root, mapping?.properties?.[valueSpot[3] ?? ""]);
      const values = node?.enum ?? (node?.const !== undefined ? [node.const] : null);
      if (!values) return null;
      const typed = valueSpot[4] ?? "";
      return {
        from: context.pos - typed.length,
        options: values.map((value) => ({ label: String(value), type: "enum" })),
        validFor: /^[A-Za-z0-9_-]*$/,
      };
    }
    return null;
  };
}

/** Shows a key's description when the pointer rests on it. */
export function schemaHover(root: SchemaNode) {
  return hoverTooltip((view, pos): Tooltip | null => {
    const doc = view.state.doc;
    const line = doc.lineAt(pos);
    const parsed = parseLine(line.text);
    if (!parsed.key) return null;
    const start = line.from + parsed.lead + parsed.dash;
    const end = start + parsed.key.length;
    if (pos < start || pos > end) return null;
    const path = pathAt(doc, line.number, parsed.lead + parsed.dash);
    const node = path && mappingAt(root, path)?.properties?.[parsed.key];
    const resolved = resolve(root, node ?? undefined);
    const help = helpText(resolved);
    if (!help) return null;
    return {
      pos: start,
      end,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "cm-schema-help";
        const title = document.createElement("strong");
        title.textContent = `${parsed.key}: ${typeName(root, node ?? undefined)}`;
        const body = document.createElement("div");
        body.textContent = help;
        dom.append(title, body);
        return { dom };
      },
    };
  });
}
