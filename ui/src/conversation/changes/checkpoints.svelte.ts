// The answers of one conversation whose folders were checkpointed (CheckpointService.Checkpoints),
// kept live from `checkpoints:changed` (this channel's, or "" for any: a clear), and the
// "Restore to before this answer" dialog's state: its preview (RestorePreview), then Restore.
// A refused preview or restore says why in the dialog. ConversationView makes one per
// conversation and shares it through context.ts. Tested in checkpoints.test.ts.

import {
  CheckpointService,
  On,
  type AnswerCheckpoint,
  type CheckpointsChanged,
  type FileChange,
  type RestoreFile,
} from "../../../bindings";
import { messageOf } from "../../lib/errors";

/** The backend calls this state uses (the bindings in the app, fakes in tests). */
export interface CheckpointsBackend {
  checkpoints(channel: string): Promise<AnswerCheckpoint[]>;
  preview(channel: string, messageId: string): Promise<RestoreFile[]>;
  restore(channel: string, messageId: string): Promise<FileChange[]>;
  onChanged(callback: (event: CheckpointsChanged) => void): () => void;
}

const bindings: CheckpointsBackend = {
  checkpoints: (channel) => CheckpointService.Checkpoints(channel),
  preview: (channel, messageId) => CheckpointService.RestorePreview(channel, messageId),
  restore: (channel, messageId) => CheckpointService.Restore(channel, messageId),
  onChanged: (callback) => On("checkpoints:changed", callback),
};

/** The restore dialog: which answer, its preview (null while it loads), and how it goes. */
export interface RestoreDialogState {
  messageId: string;
  agent: string;
  files: RestoreFile[] | null;
  error: string;
  restoring: boolean;
}

export class CheckpointsState {
  readonly channel: string;
  /** The checkpointed answers, oldest first. */
  list = $state.raw<AnswerCheckpoint[]>([]);
  /** The dialog, or null when it is closed. */
  dialog = $state<RestoreDialogState | null>(null);

  #backend: CheckpointsBackend;
  #off: (() => void) | null = null;
  #asked = 0; // the latest load asked for: an older answer arriving late is dropped
  #onRestored: (changes: FileChange[]) => void;

  constructor(
    channel: string,
    backend: CheckpointsBackend = bindings,
    onRestored: (changes: FileChange[]) => void = () => undefined,
  ) {
    this.channel = channel;
    this.#backend = backend;
    this.#onRestored = onRestored;
  }

  /** Follows the events, then loads. */
  async open(): Promise<void> {
    this.#off = this.#backend.onChanged((event) => {
      if (event.channel === this.channel || event.channel === "") void this.load();
    });
    await this.load();
  }

  dispose(): void {
    this.#off?.();
    this.#off = null;
  }

  async load(): Promise<void> {
    const asked = ++this.#asked;
    try {
      const list = await this.#backend.checkpoints(this.channel);
      if (asked === this.#asked) this.list = list;
    } catch {
      // No list (the channel is gone, the store failed): no answer offers a restore.
      if (asked === this.#asked) this.list = [];
    }
  }

  /** Whether the folders can be put back as they were before this answer. */
  restorable(messageId: string): boolean {
    return this.list.some((c) => c.messageId === messageId && c.restorable);
  }

  /** Opens the dialog on this answer and asks for its preview. */
  async ask(messageId: string, agent: string): Promise<void> {
    this.dialog = { messageId, agent, files: null, error: "", restoring: false };
    try {
      const files = await this.#backend.preview(this.channel, messageId);
      if (this.dialog?.messageId === messageId) this.dialog.files = files;
    } catch (err) {
      if (this.dialog?.messageId === messageId) {
        this.dialog.files = [];
        this.dialog.error = messageOf(err);
      }
    }
  }

  cancel(): void {
    if (!this.dialog?.restoring) this.dialog = null;
  }

  /** Restores; the dialog closes once done, or stays open with the reason it was refused. */
  async restore(): Promise<boolean> {
    const dialog = this.dialog;
    if (!dialog || dialog.restoring || dialog.files === null) return false;
    dialog.restoring = true;
    dialog.error = "";
    try {
      const changes = await this.#backend.restore(this.channel, dialog.messageId);
      this.#onRestored(changes);
      if (this.dialog === dialog) this.dialog = null;
      return true;
    } catch (err) {
      dialog.error = messageOf(err);
      return false;
    } finally {
      dialog.restoring = false;
    }
  }
}
