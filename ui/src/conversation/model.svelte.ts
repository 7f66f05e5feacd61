// One open conversation: its messages (loaded 100 at a time, older ones on demand), the window of
// them that is rendered, the turn, usage, and permission requests, all kept live from events.
//
// Messages live in a plain array (10,000 of them cost nothing until rendered); what the page
// renders is `visible`, a window of at most WINDOW_MAX of them, moved by the message list as the
// person scrolls. Messages are never mutated: an update replaces the object, so unchanged
// messages and parts are not re-rendered. `message:delta`s are applied in an animation frame, at
// most 20 times a second (DRAW_INTERVAL).
//
// Opened at a message (search, a link: `open(at)`, `goTo(at)`), the model loads the page around
// it (Around) instead of the last one; older pages come as usual (Older), newer ones with Newer
// until none is left (`moreAfter`). Until then it is "detached" from the end: the messages that
// arrive are kept apart (latest.ts), never appended after the page; reaching the end, or "Jump to
// latest", joins them on.

import {
  ChannelService,
  On,
  SearchService,
  type AroundPage,
  type Channel,
  type Handoff,
  type Message,
  type MessageDelta,
  type PermissionRequested,
  type Usage,
} from "../../bindings";
import { messageOf } from "../lib/errors";
import { applyDeltas } from "./deltas";
import { LatestMessages, mergeLatest } from "./latest";
import { lastResponder } from "./routing";
import { memberSessions } from "./session/sessions.svelte";

/** Rendered messages at most (the DOM stays bounded however long the history is). */
export const WINDOW_MAX = 200;
/** How many messages the window moves by when the person scrolls past its edge. */
export const WINDOW_STEP = 50;
/** Messages rendered when a conversation opens or jumps to its latest message, all in its
 *  first frame: their texts are built after it (parts/fillSoon.ts), so 100 cost ~30 ms here,
 *  less than showing 24 first and the rest a frame later (40 ms to the whole window; issue 29). */
export const WINDOW_INITIAL = 100;
/** Streamed deltas are applied at most this often (ms): 20 times a second, every third frame
 *  at 60 Hz (every other frame still missed a frame or two a second under 2,000 chunks/s). */
export const DRAW_INTERVAL = 50;
/** Animation frames' times vary by a millisecond or two around their 16.7 ms. */
const FRAME_SLACK = 4;

export interface ResolvedPermission {
  request: PermissionRequested;
  /** The option chosen here, or "" when the request ended otherwise (Stop, the turn ended…). */
  optionId: string;
}

type Buffered =
  | { name: "message:updated"; message: Message }
  | { name: "message:delta"; delta: MessageDelta }
  | { name: "other"; apply: () => void };

export class ConversationModel {
  readonly id: string;

  channel = $state.raw<Channel | null>(null);
  loaded = $state(false);
  loadError = $state("");
  /** Older messages exist on the server, before the first one loaded. */
  more = $state(false);
  loadingOlder = $state(false);
  olderError = $state("");

  /** The rendered window of messages (at most WINDOW_MAX), oldest first. */
  visible = $state.raw<Message[]>([]);
  /** Newer messages exist after the last one loaded (opened at an older message): load them
   *  with showLater(); until then the view is detached from the end. */
  moreAfter = $state(false);
  loadingNewer = $state(false);
  newerError = $state("");
  /** The message to bring into view and highlight, once rendered: a new object for each
   *  request (the same message asked for again is shown again). */
  reveal = $state.raw<{ id: string } | null>(null);
  /** Why the conversation could not be opened at the message asked for (it shows the latest). */
  atError = $state("");
  /** User messages waiting for the current answers: always shown last. */
  queued = $state.raw<Message[]>([]);
  /** Messages after the window that are not rendered (the person scrolled up); at least 1
   *  while newer ones are not even loaded (`moreAfter`). */
  hiddenBelow = $state(0);
  /** Index of the window's first message among all those loaded. */
  windowStart = $state(0);
  total = $state(0);

  busy = $state(false);
  queuedCount = $state(0);
  answering = $state("");
  /** The recipients still to answer the message being answered, after `answering` (issue 29). */
  next = $state.raw<string[]>([]);
  /** The turn under way is this hand-off (issue 28; null for the person's message). */
  handoff = $state.raw<Handoff | null>(null);
  usage = $state.raw<Record<string, Usage>>({});
  permissions = $state.raw<PermissionRequested[]>([]);
  resolved = $state.raw<ResolvedPermission[]>([]);
  /** The agent that answers a message without mention (SPEC: the last one that answered). */
  lastResponder = $state("");
  /** The channel no longer exists. */
  gone = $state(false);
  /** An agent message is being streamed (done is false). */
  streaming = $state.raw<Message | null>(null);
  /** The person's messages heard of for the first time since the conversation opened (sent
   *  from this window or another): the list brings each one into view. A change to one already
   *  known (a queued message whose turn came, an edit) does not count. */
  sentHeard = $state(0);

  /** Set by the message list: the person is at the bottom, new messages scroll into view. */
  following = true;

  #all: Message[] = [];
  /** While detached: the conversation's latest messages, kept live (latest.ts). */
  #latest = new LatestMessages();
  #detached = false;
  /** Bumped whenever #all is replaced: a page asked for before belongs to another list. */
  #generation = 0;
  #goToAfterOpen = "";
  #start = 0;
  #end = 0;
  #pending: MessageDelta[] = [];
  #frame = 0;
  /** When deltas were last applied (an animation frame's time). */
  #drawnAt = -Infinity;
  #buffer: Buffered[] | null = [];
  #offs: (() => void)[] = [];
  #chosen = new Map<string, string>();
  #loadedAt = 0;
  #disposed = false;
  /** When the answering agent last sent anything (not reactive: read by a ticking clock). */
  #heardAt = performance.now();

  constructor(id: string) {
    this.id = id;
  }

  // ---- loading -------------------------------------------------------------------------------

  /** Subscribes, then loads (the page around `at` when given, else the last one); events that
   *  arrive meanwhile are applied once the page is in. */
  async open(at?: string): Promise<void> {
    this.#subscribe();
    const keepSessions = memberSessions.loading(this.id); // the header's mode and option pickers
    try {
      const [conversation, around] = await Promise.all([
        ChannelService.Conversation(this.id),
        at ? this.#around(at) : null,
      ]);
      keepSessions(conversation.sessions);
      if (this.#disposed) return;
      this.channel = conversation.channel;
      this.more = conversation.more;
      this.busy = conversation.busy;
      this.queuedCount = conversation.queued;
      this.answering = conversation.answering;
      this.next = conversation.next;
      this.usage = conversation.usage;
      this.permissions = conversation.permissions;
      this.queued = conversation.messages.filter((m) => m.queued);
      const latest = conversation.messages.filter((m) => !m.queued);
      if (around && at) {
        this.#latest.reset(latest, conversation.more);
        this.#showPage(around);
        this.#placeAround(at);
      } else {
        this.#all = latest;
        this.#end = this.#all.length;
        this.#start = Math.max(0, this.#end - WINDOW_INITIAL);
      }
      const inSnapshot = new Set([...latest, ...this.#all].map((m) => m.id));
      const buffered = this.#buffer ?? [];
      this.#buffer = null;
      this.#loadedAt = performance.now();
      for (const event of buffered) {
        if (event.name === "message:updated") this.#upsert(event.message);
        else if (event.name === "message:delta") {
          // Emitted before the snapshot was taken, most likely: it is in it already.
          if (!inSnapshot.has(event.delta.messageId)) this.#pending.push(event.delta);
        } else event.apply();
      }
      this.#applyPending();
      this.#refresh();
      this.loaded = true;
      if (around && at) this.reveal = { id: at };
      const next = this.#goToAfterOpen;
      this.#goToAfterOpen = "";
      if (next && next !== at) void this.goTo(next);
    } catch (err) {
      this.loadError = messageOf(err);
    }
  }

  /** Shows the message `at` (loading the page around it unless it is loaded) and asks for it to
   *  be revealed. For a conversation already open; `open(at)` does it while opening. */
  async goTo(at: string): Promise<void> {
    if (this.#disposed) return;
    if (!this.loaded) {
      this.#goToAfterOpen = at; // asked while opening: once open
      return;
    }
    this.atError = "";
    const generation = ++this.#generation;
    if (this.#indexOf(at) < 0) {
      if (!this.#detached) {
        // From now on, what arrives is kept apart until the page around `at` is in.
        this.#latest.reset(this.#all, this.more);
        this.#detached = true;
      }
      const page = await this.#around(at);
      if (this.#disposed || generation !== this.#generation) return;
      if (!page) {
        if (!this.moreAfter) this.#attach(); // staying on the latest: rejoin what came meanwhile
        this.#refresh();
        return;
      }
      this.#showPage(page);
    }
    this.#placeAround(at);
    this.#refresh();
    this.reveal = { id: at };
  }

  async #around(at: string): Promise<AroundPage | null> {
    try {
      return await SearchService.Around(this.id, at);
    } catch (err) {
      this.atError = messageOf(err);
      return null;
    }
  }

  /** Replaces the loaded messages by an Around page (joining the latest when it reaches them). */
  #showPage(page: AroundPage): void {
    this.#generation++;
    this.#all = page.messages.filter((m) => !m.queued);
    this.more = page.more;
    this.moreAfter = page.moreAfter;
    this.#detached = true;
    if (!page.moreAfter) this.#attach();
  }

  /** Back at the end: the messages kept apart join the loaded ones, and new ones append again. */
  #attach(): void {
    const merged = mergeLatest(this.#all, this.#latest.messages);
    if (merged) this.#all = merged;
    else {
      // The latest do not follow the page (cannot happen short of 100 messages in a moment):
      // show them, rather than a gap.
      this.#generation++;
      this.#all = this.#latest.messages.slice();
      this.more = this.#latest.more;
      this.#end = this.#all.length;
      this.#start = Math.max(0, this.#end - WINDOW_INITIAL);
    }
    this.#latest.reset([], false);
    this.#detached = false;
    this.moreAfter = false;
  }

  /** The window around the message with this id (centred on it), when it is loaded. */
  #placeAround(id: string): void {
    const at = this.#indexOf(id);
    if (at < 0) return;
    this.#start = Math.max(0, Math.min(at - WINDOW_INITIAL / 2, this.#all.length - WINDOW_INITIAL));
    this.#end = Math.min(this.#all.length, this.#start + WINDOW_INITIAL);
  }

  /** Milliseconds since the agent answering last sent anything (0 when nobody answers). */
  silentFor(now: number): number {
    return this.busy && this.answering ? Math.max(0, now - this.#heardAt) : 0;
  }

  #heard(): void {
    this.#heardAt = performance.now();
  }

  dispose(): void {
    this.#disposed = true;
    this.#offs.forEach((off) => off());
    this.#offs = [];
    if (this.#frame) cancelAnimationFrame(this.#frame);
  }

  #subscribe(): void {
    const mine = (channel: string): boolean => channel === this.id;
    const later = (apply: () => void): void => {
      if (this.#buffer) this.#buffer.push({ name: "other", apply });
      else apply();
    };
    this.#offs.push(
      On("message:updated", ({ channel, message }) => {
        if (!mine(channel)) return;
        this.#heard();
        if (this.#buffer) this.#buffer.push({ name: "message:updated", message });
        else this.#upsert(message);
      }),
      On("message:delta", (delta) => {
        if (!mine(delta.channel)) return;
        this.#heard();
        if (this.#buffer) this.#buffer.push({ name: "message:delta", delta });
        else this.#queueDelta(delta);
      }),
      On("turn:changed", (turn) => {
        if (!mine(turn.channel)) return;
        if (turn.answering !== this.answering) this.#heard();
        later(() => {
          this.busy = turn.busy;
          this.queuedCount = turn.queued;
          this.answering = turn.answering;
          this.next = turn.next;
          this.handoff = turn.handoff;
        });
      }),
      On("usage:changed", ({ channel, agent, usage }) => {
        if (!mine(channel)) return;
        later(() => (this.usage = { ...this.usage, [agent]: usage }));
      }),
      On("permission:requested", (request) => {
        if (!mine(request.channel)) return;
        later(() => {
          if (this.permissions.some((p) => p.id === request.id)) return;
          // The tool call it is about came as a delta just before: show it first, so that the
          // prompt renders under it once (not moved under it on a later render).
          if (this.#applyPending()) this.#refresh();
          this.permissions = [...this.permissions, request];
        });
      }),
      On("permission:resolved", ({ id, channel }) => {
        if (!mine(channel)) return;
        later(() => this.#resolve(id));
      }),
      On("channels:changed", ({ channels }) => {
        const fresh = channels.find((c) => c.id === this.id);
        if (!fresh) {
          this.gone = true; // deleted, or another configuration (another history) was opened
          return;
        }
        later(() => {
          this.channel = fresh;
          this.#refresh(); // members changed: so may the last responder
        });
      }),
    );
  }

  // ---- older messages and the window ---------------------------------------------------------

  /** Moves the window up by a step, fetching older messages first if the window is at the top.
   *  Resolves to true when the window moved (the list then keeps its scroll anchor). */
  async showEarlier(): Promise<boolean> {
    if (this.#start === 0) {
      if (!this.more || this.loadingOlder || !this.loaded) return false;
      const first = this.#all[0];
      if (!first) return false;
      this.loadingOlder = true;
      this.olderError = "";
      const generation = this.#generation;
      try {
        const page = await ChannelService.Older(this.id, first.id);
        if (this.#disposed || generation !== this.#generation) return false;
        const known = new Set(this.#all.map((m) => m.id));
        const older = page.messages.filter((m) => !known.has(m.id));
        this.#all = [...older, ...this.#all];
        this.#start += older.length;
        this.#end += older.length;
        this.more = page.more;
      } catch (err) {
        this.olderError = messageOf(err);
        return false;
      } finally {
        this.loadingOlder = false;
      }
    }
    if (this.#start === 0) return false;
    this.#start = Math.max(0, this.#start - WINDOW_STEP);
    this.#end = Math.min(this.#end, this.#start + WINDOW_MAX);
    this.#refresh();
    return true;
  }

  /** Moves the window down by a step, fetching newer messages first (Newer) if the window is at
   *  the end of those loaded and newer ones exist; true when it moved. */
  async showLater(): Promise<boolean> {
    if (this.#end >= this.#all.length) await this.#loadNewer();
    if (this.#end >= this.#all.length) return false;
    this.#end = Math.min(this.#all.length, this.#end + WINDOW_STEP);
    this.#start = Math.max(this.#start, this.#end - WINDOW_MAX);
    this.#refresh();
    return true;
  }

  async #loadNewer(): Promise<void> {
    const last = this.#all[this.#all.length - 1];
    if (!this.moreAfter || this.loadingNewer || !this.loaded || !last) return;
    this.loadingNewer = true;
    this.newerError = "";
    const generation = this.#generation;
    try {
      const page = await SearchService.Newer(this.id, last.id);
      if (this.#disposed || generation !== this.#generation) return;
      const known = new Set(this.#all.map((m) => m.id));
      this.#all.push(...page.messages.filter((m) => !m.queued && !known.has(m.id)));
      if (!page.moreAfter || page.messages.length === 0) this.#attach();
    } catch (err) {
      this.newerError = messageOf(err);
    } finally {
      this.loadingNewer = false;
    }
  }

  /** Shows the latest messages (the "jump to latest" button); detached, those kept apart. */
  showLatest(): void {
    if (this.#detached) {
      this.#generation++;
      this.#all = this.#latest.messages.slice();
      this.more = this.#latest.more;
      this.#latest.reset([], false);
      this.#detached = false;
      this.moreAfter = false;
    }
    this.#end = this.#all.length;
    this.#start = Math.max(0, this.#end - WINDOW_INITIAL);
    this.#refresh();
  }

  /** The message with this id among those loaded. */
  message(id: string): Message | undefined {
    for (let i = this.#all.length - 1; i >= 0; i--) if (this.#all[i]?.id === id) return this.#all[i];
    return this.queued.find((m) => m.id === id);
  }

  // ---- events --------------------------------------------------------------------------------

  #upsert(message: Message): void {
    this.#applyPending(); // deltas queued before this update come first
    if (message.role === "user" && !this.#knows(message.id)) this.sentHeard++;
    if (message.queued) {
      const at = this.queued.findIndex((m) => m.id === message.id);
      this.queued = at >= 0 ? this.queued.map((m, i) => (i === at ? message : m)) : [...this.queued, message];
      return;
    }
    if (this.queued.some((m) => m.id === message.id)) {
      this.queued = this.queued.filter((m) => m.id !== message.id); // sent now, or dropped by Stop
    }
    if (this.#detached) this.#latest.upsert(message);
    const at = this.#indexOf(message.id);
    if (at >= 0) {
      this.#all[at] = message;
    } else if (!this.#detached) {
      const atEnd = this.#end === this.#all.length;
      this.#all.push(message);
      if (this.following) {
        this.#end = this.#all.length;
        this.#start = Math.max(this.#start, this.#end - WINDOW_MAX);
      } else if (atEnd && this.#end - this.#start < WINDOW_MAX) {
        this.#end = this.#all.length;
      }
    }
    this.#refresh();
  }

  #knows(id: string): boolean {
    return (
      this.queued.some((m) => m.id === id) ||
      this.#indexOf(id) >= 0 ||
      (this.#detached && this.#latest.indexOf(id) >= 0)
    );
  }

  #indexOf(id: string): number {
    for (let i = this.#all.length - 1; i >= 0; i--) if (this.#all[i]?.id === id) return i;
    return -1;
  }

  #queueDelta(delta: MessageDelta): void {
    this.#pending.push(delta);
    if (!this.#frame) this.#frame = requestAnimationFrame((now) => this.#flush(now));
  }

  /** Streamed text is drawn at most every DRAW_INTERVAL ms: each drawn frame costs the
   *  compositor a redraw of the window (QtWebEngine composites in software here: 5–15 ms a
   *  frame), and drawing every frame of a fast stream left no time for the frames between. */
  #flush(now: number): void {
    if (now - this.#drawnAt < DRAW_INTERVAL - FRAME_SLACK) {
      this.#frame = requestAnimationFrame((later) => this.#flush(later));
      return;
    }
    this.#frame = 0;
    this.#drawnAt = now;
    if (this.#applyPending()) this.#refresh();
  }

  /** Applies the queued deltas to their messages; true if any changed. */
  #applyPending(): boolean {
    if (this.#pending.length === 0) return false;
    const byMessage = new Map<string, MessageDelta[]>();
    for (const delta of this.#pending) {
      const list = byMessage.get(delta.messageId);
      if (list) list.push(delta);
      else byMessage.set(delta.messageId, [delta]);
    }
    this.#pending = [];
    let changed = false;
    for (const [id, deltas] of byMessage) {
      const at = this.#indexOf(id);
      const message = this.#all[at];
      const updated = message && this.#withDeltas(message, deltas);
      if (message && updated !== message) {
        this.#all[at] = updated as Message;
        changed = true;
      }
      if (this.#detached) {
        // The same object in both lists gets the same result: never the deltas twice.
        this.#latest.update(id, (m) => (m === message ? (updated as Message) : this.#withDeltas(m, deltas)));
        changed = true;
      }
    }
    return changed;
  }

  /** `message` with those of `deltas` it does not hold yet (itself when none). */
  #withDeltas(message: Message, deltas: MessageDelta[]): Message {
    const fresh = this.#recent() ? deltas.filter((d) => !this.#alreadyIn(message, d)) : deltas;
    return fresh.length === 0 ? message : applyDeltas(message, fresh);
  }

  /** Just after loading, the snapshot may already hold a delta that arrives after it. */
  #recent(): boolean {
    return performance.now() - this.#loadedAt < 150;
  }

  #alreadyIn(message: Message, delta: MessageDelta): boolean {
    if (delta.text == null) return false; // a part replaced twice is the same part
    const part = message.parts[delta.index];
    return part !== undefined && delta.text.length > 0 && part.text.endsWith(delta.text);
  }

  #resolve(id: string): void {
    const request = this.permissions.find((p) => p.id === id);
    if (!request) return;
    this.permissions = this.permissions.filter((p) => p.id !== id);
    this.resolved = [...this.resolved, { request, optionId: this.#chosen.get(id) ?? "" }];
  }

  /** Answers a permission request with one of its options. */
  async answerPermission(request: PermissionRequested, optionId: string): Promise<void> {
    this.#chosen.set(request.id, optionId);
    try {
      await ChannelService.AnswerPermission(request.id, optionId);
    } catch (err) {
      this.#chosen.delete(request.id);
      throw err;
    }
  }

  /** Recomputes what the page shows from the messages. */
  #refresh(): void {
    this.#end = Math.min(this.#end, this.#all.length);
    this.#start = Math.min(this.#start, this.#end);
    this.visible = this.#all.slice(this.#start, this.#end);
    this.windowStart = this.#start;
    this.total = this.#all.length;
    this.hiddenBelow = this.#all.length - this.#end + (this.moreAfter ? 1 : 0);
    const members = this.channel?.members ?? [];
    // Who answers next and who streams depend on the end of the conversation, not on the page.
    const end = this.#detached ? this.#latest.messages : this.#all;
    this.lastResponder = lastResponder(end, members);
    let live: Message | null = null;
    for (let i = end.length - 1; i >= Math.max(0, end.length - 5); i--) {
      const m = end[i];
      if (m?.role === "agent" && !m.done) {
        live = m;
        break;
      }
    }
    this.streaming = live;
  }
}
