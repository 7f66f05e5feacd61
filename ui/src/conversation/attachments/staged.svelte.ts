// The files and images attached to the message being written, per conversation (they survive
// switching conversations, like drafts; the backend keeps them staged per channel too).
// Files come from the native chooser or a drop the window located (AttachFile); images pasted or
// dropped without a path are read here and sent as base64 (AttachImage). Other files dropped
// without a path cannot be attached: the window gives the page their bytes, not their location.

import { AttachmentService, type Attachment } from "../../../bindings";
import { messageOf } from "../../lib/errors";
import { t } from "../../lib/i18n.svelte";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
export const IMAGE_LIMIT = 10 * 1024 * 1024; // as the backend checks (app/channels/attachments.py)
export const MAX_ATTACHMENTS = 20;

/** A dropped or pasted file as the page sees it (a DOM File, or a stand-in in tests). */
export interface PageFile {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly pywebviewFullPath?: string; // where a dropped file is, when the window recorded it
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** "12 KB", "1.5 MB": a size as the chips show it (the backend's lines say the same). */
export function humanSize(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 1024)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

export function base64Of(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  const step = 0x8000; // String.fromCharCode takes so many arguments at most
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

export class StagedAttachments {
  private lists = $state<Record<string, Attachment[]>>({});
  private errors = $state<Record<string, string>>({});
  private pending = $state<Record<string, number>>({});

  of(channel: string): Attachment[] {
    return this.lists[channel] ?? [];
  }

  /** Why the last attachment failed ("" when it did not). */
  error(channel: string): string {
    return this.errors[channel] ?? "";
  }

  /** How many attachments are on their way (Send waits for them). */
  busy(channel: string): boolean {
    return (this.pending[channel] ?? 0) > 0;
  }

  ids(channel: string): string[] {
    return this.of(channel).map((a) => a.id);
  }

  clearError(channel: string): void {
    this.errors[channel] = "";
  }

  /** Attaches files by their absolute paths (chooser, drop with paths). */
  async attachPaths(channel: string, paths: string[]): Promise<void> {
    for (const path of paths) await this.run(channel, () => AttachmentService.AttachFile(channel, path));
  }

  /** Attaches what was dropped or pasted: by full path when the window gave one, images by their
   *  bytes, anything else refused with why. */
  async attachFiles(channel: string, files: PageFile[]): Promise<void> {
    const refused: string[] = [];
    for (const file of files) {
      if (file.pywebviewFullPath) {
        const path = file.pywebviewFullPath;
        await this.run(channel, () => AttachmentService.AttachFile(channel, path));
      } else if (IMAGE_TYPES.includes(file.type)) {
        if (file.size > IMAGE_LIMIT) {
          refused.push(t("{name} is too big: images of 10 MB at most", { name: file.name }));
          continue;
        }
        await this.run(channel, async () =>
          AttachmentService.AttachImage(channel, file.name, file.type, base64Of(await file.arrayBuffer())),
        );
      } else {
        refused.push(
          t("{name}: the window does not say where this file is; attach it with the paperclip button", {
            name: file.name || t("a file"),
          }),
        );
      }
    }
    if (refused.length) this.errors[channel] = refused.join(" · ");
  }

  /** Takes one back before sending (a pasted image's copy is deleted). */
  async remove(channel: string, id: string): Promise<void> {
    this.lists[channel] = this.of(channel).filter((a) => a.id !== id);
    try {
      await AttachmentService.RemoveAttachment(channel, id);
    } catch {
      // already gone (sent meanwhile, or the app restarted): nothing to take back
    }
  }

  /** The message was sent with them: they belong to it now. */
  sent(channel: string, ids: string[]): void {
    this.lists[channel] = this.of(channel).filter((a) => !ids.includes(a.id));
    this.errors[channel] = "";
  }

  private async run(channel: string, attach: () => Promise<Attachment>): Promise<void> {
    if (this.of(channel).length + (this.pending[channel] ?? 0) >= MAX_ATTACHMENTS) {
      this.errors[channel] = t("{count} attachments at most for one message", { count: MAX_ATTACHMENTS });
      return;
    }
    this.errors[channel] = "";
    this.pending[channel] = (this.pending[channel] ?? 0) + 1;
    try {
      const attachment = await attach();
      this.lists[channel] = [...this.of(channel), attachment];
    } catch (err) {
      this.errors[channel] = messageOf(err);
    } finally {
      this.pending[channel] = (this.pending[channel] ?? 1) - 1;
    }
  }
}

export const staged = new StagedAttachments();
