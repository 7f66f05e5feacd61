// The CodeMirror setup of the configuration editor: YAML, our colours (CSS custom properties, so
// the editor follows the theme without being rebuilt), lint markers, schema help, Mod-S.

import { autocompletion, closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { yaml } from "@codemirror/lang-yaml";
import { bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { schemaCompletion, schemaHover, type SchemaNode } from "./schema";

const highlight = HighlightStyle.define([
  { tag: tags.definition(tags.propertyName), color: "var(--syn-key)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--syn-string)" },
  { tag: tags.content, color: "var(--syn-value)" },
  { tag: tags.lineComment, color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [tags.separator, tags.meta, tags.squareBracket, tags.brace], color: "var(--syn-punct)" },
  { tag: [tags.labelName, tags.typeName, tags.keyword, tags.attributeValue], color: "var(--syn-meta)" },
]);

const look = EditorView.theme({
  "&": {
    height: "100%",
    backgroundColor: "var(--bg)",
    color: "var(--text)",
    fontSize: "12.5px",
  },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.65" },
  ".cm-content": { padding: "10px 0", caretColor: "var(--text)" },
  ".cm-line": { padding: "0 14px 0 10px" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)", borderLeftWidth: "2px" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground":
    { backgroundColor: "var(--selection)" },
  ".cm-gutters": {
    backgroundColor: "var(--bg-subtle)",
    color: "var(--text-faint)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 10px 0 14px", minWidth: "36px" },
  ".cm-activeLine": { backgroundColor: "var(--bg-hover)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--bg-hover)", color: "var(--text)" },
  ".cm-matchingBracket": { backgroundColor: "var(--bg-active)", outline: "none" },
  ".cm-gutter-lint": { width: "18px" },
  ".cm-gutter-lint .cm-gutterElement": { padding: "0 2px" },
  ".cm-tooltip": {
    border: "1px solid var(--border)",
    borderRadius: "8px",
    backgroundColor: "var(--bg)",
    color: "var(--text)",
    boxShadow: "var(--shadow-pop)",
  },
  ".cm-tooltip-autocomplete > ul": { fontFamily: "var(--font-mono)", maxHeight: "16em", borderRadius: "8px" },
  ".cm-tooltip-autocomplete > ul > li": { padding: "3px 10px !important", lineHeight: "1.5" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--accent-fg)",
  },
  ".cm-completionDetail": { color: "var(--text-faint)", fontStyle: "normal", marginLeft: "1.2em" },
  "li[aria-selected] .cm-completionDetail": { color: "inherit", opacity: "0.8" },
  ".cm-completionInfo": {
    padding: "8px 10px",
    maxWidth: "320px",
    whiteSpace: "pre-line",
    fontFamily: "var(--font-ui)",
    border: "1px solid var(--border)",
    borderRadius: "8px",
    backgroundColor: "var(--bg)",
    boxShadow: "var(--shadow-pop)",
  },
  ".cm-schema-help": { padding: "8px 10px", maxWidth: "360px", whiteSpace: "pre-line", fontSize: "12.5px" },
  ".cm-schema-help strong": { display: "block", marginBottom: "2px", fontFamily: "var(--font-mono)", fontWeight: "600" },
  ".cm-diagnostic": { padding: "6px 10px", fontFamily: "var(--font-ui)" },
  ".cm-diagnostic-error": { borderLeft: "3px solid var(--danger)" },
  ".cm-diagnostic-warning": { borderLeft: "3px solid var(--warning)" },
  ".cm-diagnostic .inline-code": {
    padding: "0 3px",
    borderRadius: "var(--radius-sm)",
    background: "var(--bg-inset)",
    fontFamily: "var(--font-mono)",
    fontSize: "0.92em",
  },
  ".cm-diagnostic .problem-detail": { color: "var(--text-faint)", fontFamily: "var(--font-mono)", fontSize: "11.5px" },
  ".cm-panels": { backgroundColor: "var(--bg-subtle)", color: "var(--text)" },
});

export interface EditorHooks {
  onChange: (text: string) => void;
  onSave: () => void;
}

export function editorExtensions(schema: SchemaNode | null, hooks: EditorHooks, label: string): Extension[] {
  return [
    lineNumbers(),
    lintGutter(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    EditorState.tabSize.of(2),
    indentUnit.of("  "),
    yaml(),
    syntaxHighlighting(highlight),
    look,
    // Brings its own keymap (Ctrl+Space, arrows, Enter) at the highest precedence.
    autocompletion({ override: schema ? [schemaCompletion(schema)] : [], icons: false }),
    ...(schema ? [schemaHover(schema)] : []),
    keymap.of([
      {
        key: "Mod-s",
        preventDefault: true,
        run: () => {
          hooks.onSave();
          return true;
        },
      },
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...historyKeymap,
      ...lintKeymap,
      indentWithTab, // Escape then Tab still moves the focus out of the editor
    ]),
    EditorView.contentAttributes.of({ "aria-label": label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) hooks.onChange(update.state.doc.toString());
    }),
  ];
}
