// Files given to the composer other than through the chooser: dropped on it, or images pasted
// into the box. Each handler calls preventDefault only for what it takes (the page's drop guard,
// lib/dropGuard.ts, refuses drops elsewhere; pasted text pastes as usual).

import { AttachmentService } from "../../../bindings";
import { dropZone } from "../../lib/dropGuard";
import { t } from "../../lib/i18n.svelte";
import { staged, type PageFile } from "../attachments/staged.svelte";

function hasFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes("Files") ?? false;
}

export interface FileDrop {
  channel: string;
  /** Files are dragged over the element (true), or no longer are (false). */
  ondragging: (dragging: boolean) => void;
}

/** Makes `element` a drop zone (lib/dropGuard) whose dropped files attach to the channel's next
 *  message. Usable as a Svelte action: `use:fileDrop={{ channel, ondragging }}`. */
export function fileDrop(element: HTMLElement, initial: FileDrop): { update(next: FileDrop): void; destroy(): void } {
  let options = initial;
  const zone = dropZone(element);
  const over = (event: DragEvent): void => {
    if (!hasFiles(event)) return;
    event.preventDefault(); // a drop here attaches
    if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    options.ondragging(true);
  };
  const leave = (): void => options.ondragging(false);
  const drop = (event: DragEvent): void => {
    options.ondragging(false);
    if (!hasFiles(event)) return;
    event.preventDefault();
    void attachDropped(options.channel, Array.from(event.dataTransfer?.files ?? []));
  };
  element.addEventListener("dragover", over);
  element.addEventListener("dragleave", leave);
  element.addEventListener("drop", drop);
  return {
    update: (next) => (options = next),
    destroy: () => {
      zone.destroy();
      element.removeEventListener("dragover", over);
      element.removeEventListener("dragleave", leave);
      element.removeEventListener("drop", drop);
    },
  };
}

async function attachDropped(channel: string, files: File[]): Promise<void> {
  // The window recorded where the dropped files are, when it could (app/bridge/dropped_paths.py).
  const paths = await AttachmentService.DroppedPaths(files.map((f) => f.name)).catch(() => []);
  const located = files.map((file, i): PageFile => {
    const path = paths[i];
    if (!path) return file;
    return { name: file.name, type: file.type, size: file.size, pywebviewFullPath: path, arrayBuffer: () => file.arrayBuffer() };
  });
  await staged.attachFiles(channel, located);
}

/** A paste in the box: images on the clipboard attach; text (even with an image, as a web page
 *  copies both) pastes. */
export function pasteImages(channel: string, event: ClipboardEvent): void {
  const data = event.clipboardData;
  if (!data || data.getData("text/plain")) return;
  const images = Array.from(data.files).filter((f) => f.type.startsWith("image/"));
  if (!images.length) return;
  event.preventDefault();
  void staged.attachFiles(
    channel,
    images.map((f) => (f.name && f.name !== "image.png" ? f : renamed(f))),
  );
}

function renamed(file: File): PageFile {
  const extension = file.type.split("/")[1] ?? "png";
  const name = t("pasted image") + "." + (extension === "jpeg" ? "jpg" : extension);
  return { name, type: file.type, size: file.size, arrayBuffer: () => file.arrayBuffer() };
}
