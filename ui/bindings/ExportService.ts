// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";

/** Extension: the whole conversation as Markdown, self-contained sanitized HTML or JSON text. */
export function Export(id: string, format: "markdown" | "html" | "json"): Promise<string> {
  return call("ExportService", "Export", id, format);
}

/** Extension: one message as Markdown (what "Copy" puts on the clipboard): its content without the author and time heading an export gives it. */
export function MessageMarkdown(id: string, messageId: string): Promise<string> {
  return call("ExportService", "MessageMarkdown", id, messageId);
}

/** Extension: exports through the native save dialog; the path written ("" when cancelled). */
export function SaveExport(id: string, format: "markdown" | "html" | "json"): Promise<string> {
  return call("ExportService", "SaveExport", id, format);
}
