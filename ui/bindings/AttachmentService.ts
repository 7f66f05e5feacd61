// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Attachment } from "./models";

/** Extension: a file of the person's (absolute path) to send with the next message. */
export function AttachFile(id: string, path: string): Promise<Attachment> {
  return call("AttachmentService", "AttachFile", id, path);
}

/** Extension: an image (base64 `data`, pasted or dropped) kept in the data folder, to send with the next message. */
export function AttachImage(id: string, name: string, mime: string, data: string): Promise<Attachment> {
  return call("AttachmentService", "AttachImage", id, name, mime, data);
}

/** Extension: an attached image of this conversation as a `data:` URL, to show it. */
export function AttachmentData(id: string, attachmentId: string): Promise<string> {
  return call("AttachmentService", "AttachmentData", id, attachmentId);
}

/** Extension: shows the native chooser for files to attach; their absolute paths ([] when cancelled). Attach each with AttachFile. */
export function ChooseFiles(): Promise<string[]> {
  return call("AttachmentService", "ChooseFiles");
}

/** Extension: the full paths of the files just dropped on the window with these names ("" for each the window could not locate: the page then reads its bytes). */
export function DroppedPaths(names: string[]): Promise<string[]> {
  return call("AttachmentService", "DroppedPaths", names);
}

/** Extension: takes back an attachment not sent yet (a pasted image's copy goes). */
export function RemoveAttachment(id: string, attachmentId: string): Promise<void> {
  return call("AttachmentService", "RemoveAttachment", id, attachmentId);
}
