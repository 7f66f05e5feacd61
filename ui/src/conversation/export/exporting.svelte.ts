// A conversation's export (issue 17), shared by the header's Export menu and its "⋯" items
// (issue 29): saved through the native save dialog (ExportService.SaveExport), the path written
// said for a few seconds by ExportToast, a cancelled dialog saying nothing, an error kept until
// dismissed. One state for the window: one conversation is shown at a time.
import { ExportService } from "../../../bindings";
import { messageOf } from "../../lib/errors";
import { t } from "../../lib/i18n.svelte";

export type Format = "markdown" | "html" | "json";

export const FORMATS: { id: Format; label: () => string }[] = [
  { id: "markdown", label: () => t("Markdown (.md)") },
  { id: "html", label: () => t("Web page (.html)") },
  { id: "json", label: () => t("JSON (.json)") },
];

const SAID_FOR_MS = 8000; // long enough to read a path, short enough not to linger

export const exporting = $state({ channel: "", saving: false, saved: "", error: "" });
let clearTimer: ReturnType<typeof setTimeout> | undefined;

export async function exportConversation(channel: string, format: Format): Promise<void> {
  clearTimeout(clearTimer);
  Object.assign(exporting, { channel, saving: true, saved: "", error: "" });
  try {
    const path = await ExportService.SaveExport(channel, format);
    if (path) {
      exporting.saved = path;
      clearTimer = setTimeout(() => (exporting.saved = ""), SAID_FOR_MS);
    }
  } catch (err) {
    exporting.error = messageOf(err);
  } finally {
    exporting.saving = false;
  }
}

export function dismissExportError(): void {
  exporting.error = "";
}
