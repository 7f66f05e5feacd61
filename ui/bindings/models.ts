// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

/** Extension (issue 29): `agent`, idle, was stopped so that `forAgent` could start without going over `limits.maxRunningAgents` (`limit`). Its newest direct conversation also gets a `made-room` system message. */
export interface AgentEvicted {
  agent: string;
  forAgent: string;
  limit: number;
}

export interface AgentInfo {
  name: string;
  title: string;
  icon: string;
  description: string;
  state: "stopped" | "starting" | "ready" | "busy" | "error";
  error: string;
  outdated: boolean;
  commandMissing: string;
  authMethods: AuthMethodInfo[];
  needsSignIn: boolean;
  signInHint: string;
  listsSessions: boolean | null;
}

export interface AgentLog {
  agent: string;
  line: string;
}

/** One of the sessions the agent keeps (ACP `session/list`): its id, title (may be empty), folder (the session's working directory) and last activity (ISO 8601, or empty). */
export interface AgentSession {
  id: string;
  title: string;
  folder: string;
  updatedAt: string;
}

export interface AgentStateChanged {
  agent: string;
  state: "stopped" | "starting" | "ready" | "busy" | "error";
  error: string | null;
}

/** An answer whose agent's folders were checkpointed when it started and ended. */
export interface AnswerCheckpoint {
  messageId: string;
  agent: string;
  folders: string[];
  startedAt: string;
  endedAt: string;
  restorable: boolean;
  skipped: SkippedFile[];
}

/** Messages around one message (it included), oldest first: `more` = older ones exist, `moreAfter` = newer ones exist (load them with `Newer`). */
export interface AroundPage {
  messages: Message[];
  more: boolean;
  moreAfter: boolean;
}

/** A file or an image attached to a user message (issue 15). `path` is absolute: the person's file, or for pasted/dropped images a copy in the configuration's data folder. */
export interface Attachment {
  id: string;
  kind: "file" | "image";
  name: string;
  path: string;
  mime: string;
  size: number;
}

/** What waits for the person: unfinished reading (answers finished in a conversation that was not on screen in a focused window) by channel, and pending permission requests. */
export interface AttentionCounts {
  unread: Record<string, number>;
  permissions: number;
  total: number;
}

/** One way to sign in to the agent, as it announced it (`authMethods` of `initialize`). */
export interface AuthMethodInfo {
  id: string;
  name: string;
  description: string;
  type: "agent" | "env_var" | "terminal";
  vars: AuthVarInfo[];
  link: string;
  command: string[];
  saved: boolean;
}

/** An environment variable an `env_var` sign-in method needs. */
export interface AuthVarInfo {
  name: string;
  secret: boolean;
  label: string;
}

/** One agent the gallery offers: a registry entry, or a program detected on PATH. */
export interface CatalogEntry {
  id: string;
  name: string;
  version: string;
  description: string;
  icon: string;
  kind: "npx" | "uvx" | "binary" | "path";
  installed: string;
  detected: string;
  needs: string[];
  added: string[];
  update: boolean;
  repository: string;
  license: string;
}

/** Extension: file changes recorded or reverted in a channel (the changed records). */
export interface ChangesChanged {
  channel: string;
  changes: FileChange[];
  removed: string[];
}

export interface Channel {
  id: string;
  name: string;
  description: string;
  direct: string;
  members: string[];
  title: string;
  createdAt: string;
  lastActivity: string;
  handoffs: number;
  forkedFrom: ForkOrigin | null;
}

export interface ChannelsChanged {
  channels: Channel[];
}

/** The checkpoint store in the data folder (Settings). */
export interface CheckpointStoreInfo {
  sizeBytes: number;
  snapshots: number;
  oldestAt: string;
  folder: string;
}

/** Extension: an answer of the channel was checkpointed (started or ended), or checkpoints were cleared (`channel` "": any channel's). CheckpointService.Checkpoints has the list. */
export interface CheckpointsChanged {
  channel: string;
}

export interface Command {
  name: string;
  description: string;
  hint: string;
}

export interface CommandsChanged {
  agent: string;
  commands: Command[];
}

/** The agent compacting its context (`compaction_update`), with the summary it kept. */
export interface Compaction {
  id: string;
  status: "in_progress" | "completed" | "failed" | "cancelled";
  summary: string;
  error: string;
}

/** The file was saved or reloaded. `problems` holds problems and warnings (see `warning`). */
export interface ConfigChanged {
  path: string;
  valid: boolean;
  problems: Problem[];
}

export interface ConfigInfo {
  path: string;
  source: string;
  created: boolean;
  valid: boolean;
  problems: Problem[];
  warnings: Problem[];
  theme: string;
  language: string;
  historyProblem: string;
}

/** One region both the folder and the worktree changed since the base, differently: the lines of each (text), and where it begins in the folder's file (1-based). */
export interface ConflictHunk {
  index: number;
  line: number;
  base: string;
  ours: string;
  theirs: string;
}

export interface Conversation {
  channel: Channel;
  busy: boolean;
  queued: number;
  answering: string;
  next: string[];
  usage: Record<string, Usage>;
  permissions: PermissionRequested[];
  sessions: Record<string, MemberSession>;
  messages: Message[];
  more: boolean;
}

/** What a session cost so far (ACP `usage_update.cost`). */
export interface Cost {
  amount: number;
  currency: string;
}

export interface Diff {
  path: string;
  oldText: string;
  newText: string;
  newFile: boolean;
}

export interface ElicitationChoice {
  value: string;
  title: string;
}

/** One property of the requested schema, as a form field. */
export interface ElicitationField {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "multiselect";
  title: string;
  description: string;
  required: boolean;
  default: boolean | number | string | string[] | null;
  choices: ElicitationChoice[];
  minimum: number | null;
  maximum: number | null;
  minLength: number | null;
  maxLength: number | null;
  minItems: number | null;
  maxItems: number | null;
  format: string;
}

/** A question waiting for the person (event `elicitation:requested`). */
export interface ElicitationRequested {
  id: string;
  channel: string;
  agent: string;
  messageId: string;
  mode: "form" | "url";
  message: string;
  title: string;
  description: string;
  fields: ElicitationField[];
  url: string;
}

/** The question is gone: answered, cancelled (Stop, the agent's exit, the channel deleted) or withdrawn by the agent (event `elicitation:resolved`). */
export interface ElicitationResolved {
  id: string;
  channel: string;
}

/** One file an agent changed in one answer, reviewable and revertible. `diff` is the unified diff from the text before to the text after (cut, with a note, past its size limit; "" for a binary file); `newFile` when the file did not exist before (`status` "added"). `reverted` once the person reverted it. `conflictWith` names who changed the file on disk since this agent last read or wrote it ("" when nobody did): another agent's name, or "you" for an outside change. `path` is the file really written, every link resolved; `throughLink` is the path the agent gave when a symbolic link led from it to `path` (""). `route` says how it was made; `during` names the other agents whose answers ran on the same folder at the same time when nothing tells which of them made it ("changed during both answers"). `checkpoint`: the answer whose folder checkpoints hold the change ("" for a write outside them, kept by its texts). `revertible` is false once the checkpoint that holds its contents was cleared. */
export interface FileChange {
  id: string;
  channel: string;
  messageId: string;
  agent: string;
  path: string;
  newFile: boolean;
  reverted: boolean;
  createdAt: string;
  diff: string;
  additions: number;
  deletions: number;
  conflictWith: string;
  throughLink: string;
  route: "fs" | "agent" | "command" | "restore";
  status: "added" | "modified" | "deleted" | "renamed";
  oldPath: string;
  binary: boolean;
  during: string[];
  folder: string;
  checkpoint: string;
  revertible: boolean;
}

/** Where a fork began: the source channel's id and shown name then (it may be renamed or deleted since), and the message it was forked at (the source's id of it). */
export interface ForkOrigin {
  channel: string;
  message: string;
  name: string;
}

/** Issue 28: an agent's answer that mentioned other members, routed to them. On an answer: it is hand-off `index` of `budget`, from `fromAgent`. On a `handoff-limit` or `handoffs-stopped` system message: the members `to` it was not sent to. */
export interface Handoff {
  fromAgent: string;
  index: number;
  budget: number;
  to: string[];
}

/** Event `install:progress`: a binary install's bytes, or an npx/uvx first start's package download (`agent` names the configured agent then). */
export interface InstallProgress {
  id: string;
  agent: string;
  phase: "download" | "verify" | "unpack" | "done" | "failed" | "cancelled";
  done: number;
  total: number;
  error: string;
}

export interface Location {
  path: string;
  line: number | null;
}

/** A `made-room` line: the agent was stopped to start `forAgent` under the limit. */
export interface MadeRoom {
  forAgent: string;
  limit: number;
}

/** What one member's session offers and is set to. Empty lists: the agent offers none (or its session has not opened yet). */
export interface MemberSession {
  modes: ModeInfo[];
  mode: string;
  options: SessionOptionInfo[];
}

/** A channel member's isolation: `isolated` when its sessions work in the worktree (`configured`: the YAML's `isolation: worktree` asks it); `available` false with `reason` when its folder cannot be isolated. The worktree (`exists`) at `path` on `branch`, made from the folder's commit `base`, and its changed `files`. */
export interface MemberWorktree {
  agent: string;
  isolated: boolean;
  configured: boolean;
  available: boolean;
  reason: string;
  folder: string;
  exists: boolean;
  path: string;
  branch: string;
  base: string;
  files: WorktreeFile[];
}

/** What Merge into the folder did: the files written (`merged`, deleted ones included), those the folder already had as the worktree has them (`unchanged`), and the `conflicts` left for the person (their folder files untouched). */
export interface MergeOutcome {
  agent: string;
  merged: string[];
  unchanged: string[];
  conflicts: WorktreeConflict[];
}

export interface Message {
  id: string;
  channel: string;
  createdAt: string;
  role: "user" | "agent" | "system";
  agent: string;
  parts: Part[];
  done: boolean;
  queued: boolean;
  stopReason: "end_turn" | "cancelled" | "max_tokens" | "max_turn_requests" | "refusal" | null;
  error: string;
  errorDetails: string;
  code: "agent-joined" | "agent-left" | "no-recipient" | "agent-unavailable" | "new-session" | "restored" | "handoff-limit" | "handoffs-stopped" | "recipients-dropped" | "made-room" | null;
  attachments: Attachment[];
  handoff: Handoff | null;
  dropped: string[];
  madeRoom: MadeRoom | null;
}

/** `text` is appended to part `index` (text, thought), or `part` replaces it (tool, plan). */
export interface MessageDelta {
  channel: string;
  messageId: string;
  index: number;
  kind: "text" | "thought" | "tool" | "plan" | "compaction" | "subagent";
  text: string | null;
  part: Part | null;
}

export interface MessageUpdated {
  channel: string;
  message: Message;
}

/** A mode the agent offers (ACP `availableModes`): "read-only", "plan", "auto", … */
export interface ModeInfo {
  id: string;
  name: string;
  description: string;
}

/** Messages after one, oldest first; `moreAfter` when newer ones still exist. */
export interface NewerPage {
  messages: Message[];
  moreAfter: boolean;
}

/** The person clicked a notification: show this conversation (at this message). */
export interface NotificationOpened {
  channel: string;
  messageId: string;
}

export interface OptionChoiceInfo {
  value: string;
  name: string;
  description: string;
}

export interface Page {
  messages: Message[];
  more: boolean;
}

export interface Part {
  kind: "text" | "thought" | "tool" | "plan" | "compaction" | "subagent";
  text: string;
  tool: ToolCall | null;
  plan: PlanEntry[] | null;
  messageId: string;
  planId: string;
  planUri: string;
  removed: boolean;
  compaction: Compaction | null;
  subagent: Subagent | null;
}

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: "allow_once" | "allow_always" | "reject_once" | "reject_always";
}

export interface PermissionRequested {
  id: string;
  channel: string;
  agent: string;
  messageId: string;
  toolCall: ToolCall;
  options: PermissionOption[];
  rejections: number;
  askedBySidekicks: boolean;
}

export interface PermissionResolved {
  id: string;
  channel: string;
}

/** An "always allow" the person gave: the agent's requests for this kind of tool are allowed without asking, in every channel, until revoked. */
export interface PermissionRule {
  id: string;
  agent: string;
  kind: "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";
  createdAt: string;
  channel: string;
  example: string;
}

export interface PermissionRulesChanged {
  rules: PermissionRule[];
}

export interface PlanEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority: "high" | "medium" | "low";
}

export interface Preferences {
  theme: "system" | "light" | "dark";
  language: "system" | "en" | "fr";
  notifications: boolean;
  maxRunningAgents: number;
  stopIdleAgentsAfter: string;
}

export interface Problem {
  line: number;
  column: number;
  message: string;
  warning: boolean;
  detail: string;
}

/** A rate-limit window of the agent's account (claude's `_claude/rateLimit`): `window` is five_hour, seven_day, …; `utilization` 0–1; `resetsAt` in seconds since the epoch. */
export interface RateLimit {
  window: string;
  status: string;
  utilization: number | null;
  resetsAt: number | null;
}

/** Where the catalog's registry entries come from. */
export interface RegistryInfo {
  source: "registry" | "cache" | "builtin";
  url: string;
  fetchedAt: string;
  error: string;
}

/** What Restore will do to one file (CheckpointService.RestorePreview): `status` is the change it makes — "added" recreates a file, "deleted" removes one. `skipped` says why a file is left as it is ("" when it is restored): a symbolic link is never recreated. */
export interface RestoreFile {
  path: string;
  folder: string;
  status: "added" | "modified" | "deleted" | "renamed";
  oldPath: string;
  binary: boolean;
  additions: number;
  deletions: number;
  skipped: string;
}

/** One message found. `snippet` is plain text (never HTML) around the matches; `highlights` are the [start, end) ranges of the matched words in it, in code points (an emoji counts one). */
export interface SearchHit {
  channel: string;
  channelName: string;
  messageId: string;
  agent: string;
  role: "user" | "agent" | "system";
  createdAt: string;
  snippet: string;
  highlights: number[][];
}

/** Newest first; `more` when the query matched more messages than were returned; `indexing` while the index catches up with the history (results may lack some messages). */
export interface SearchResults {
  results: SearchHit[];
  more: boolean;
  indexing: boolean;
}

/** Extension: a member's session offers or is set to other modes or options. */
export interface SessionChanged {
  channel: string;
  agent: string;
  session: MemberSession;
}

/** A session configuration option (ACP `configOptions`): a model, a reasoning effort, … `category` is the agent's hint ("model", "mode", "thought_level", or empty). */
export interface SessionOptionInfo {
  id: string;
  name: string;
  kind: "select" | "boolean";
  value: string | boolean;
  description: string;
  category: string;
  choices: OptionChoiceInfo[];
  via: "config_option" | "set_model";
}

/** Extension: a sign-in in progress printed a web address to open and/or asks for a code (app/agents/sign_in_prompts.py): an `agent` method's agent on its stdout (`terminal` is ""), or a sign-in terminal's program. Sent again when either changes. */
export interface SignInPrompt {
  agent: string;
  terminal: string;
  url: string;
  asksCode: boolean;
}

/** Extension: a sign-in terminal's command ended; the agent was restarted to use the new credentials when it ran. `code` is None when it was killed by a signal. */
export interface SignInTerminalExited {
  terminal: string;
  agent: string;
  code: number | null;
}

/** Extension: a sign-in terminal that was opened (`SignInService.SignInTerminal`). Its output arrives as `signin:output`, its end as `signin:exited`. */
export interface SignInTerminalInfo {
  terminal: string;
  agent: string;
  command: string[];
}

/** Extension: output of a sign-in terminal (`terminal` sign-in methods), as text. */
export interface SignInTerminalOutput {
  terminal: string;
  data: string;
}

/** A file an answer's checkpoints left out: `reason` "too large" (over `checkpoints.maxFileBytes`), "nested repository" (a folder with its own .git, whole) or "unreadable". Its changes are not seen, reverted nor restored. */
export interface SkippedFile {
  path: string;
  size: number;
  reason: string;
}

/** A child session the agent runs (`subagent_update`), its messages nested: the prompt it was given, its own parts as they stream, its reply to the parent. */
export interface Subagent {
  sessionId: string;
  title: string;
  description: string;
  cwd: string;
  state: "running" | "requires_action" | "idle" | "unknown";
  stopReason: string;
  error: string;
  canCancel: boolean;
  prompt: string;
  reply: string;
  parts: Part[];
}

/** Extension: a command an agent ran ended (exit code, or the signal that killed it). */
export interface TerminalExited {
  channel: string;
  agent: string;
  messageId: string;
  terminal: string;
  exitCode: number | null;
  signal: string | null;
}

/** Extension: new output of a command an agent runs (`data` as text, ANSI included). */
export interface TerminalOutput {
  channel: string;
  agent: string;
  messageId: string;
  terminal: string;
  data: string;
}

/** A command an agent ran through Sidekicks (ACP `terminal/*`), shown in its tool call. `output` is the tail kept (ANSI sequences included: the page renders them); `exitCode` or `signal` once it ended. */
export interface TerminalView {
  id: string;
  command: string;
  output: string;
  truncated: boolean;
  running: boolean;
  exitCode: number | null;
  signal: string | null;
}

export interface ToolCall {
  id: string;
  title: string;
  kind: "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";
  status: "pending" | "in_progress" | "completed" | "failed";
  input: string;
  output: string;
  locations: Location[];
  diffs: Diff[];
  terminals: TerminalView[];
  allowedByRule: string;
  rejected: boolean;
  sessions: string[];
}

export interface TurnChanged {
  channel: string;
  busy: boolean;
  queued: number;
  answering: string;
  handoff: Handoff | null;
  next: string[];
}

export interface Usage {
  used: number;
  size: number;
  cost: Cost | null;
  rateLimits: RateLimit[];
}

export interface UsageChanged {
  channel: string;
  agent: string;
  usage: Usage;
}

/** A file Merge did not write: its conflict hunks to pick from. `whole` when the choice is for the whole file (binary, or deleted on one side: `oursDeleted` / `theirsDeleted`). `version` is the folder's file as listed (sha256, "" when absent): a choice made on an older listing is refused. */
export interface WorktreeConflict {
  path: string;
  version: string;
  whole: boolean;
  binary: boolean;
  oursDeleted: boolean;
  theirsDeleted: boolean;
  hunks: ConflictHunk[];
}

/** A file the worktree changed against its base commit: `path` relative to the repository's root (`/`-separated), `diff` unified from the base to the worktree ("" when binary). */
export interface WorktreeFile {
  path: string;
  status: "added" | "modified" | "deleted";
  diff: string;
  additions: number;
  deletions: number;
  binary: boolean;
}
