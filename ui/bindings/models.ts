// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

export interface AgentInfo {
  name: string;
  title: string;
  icon: string;
  description: string;
  state: "stopped" | "starting" | "ready" | "busy" | "error";
  error: string;
  outdated: boolean;
  authMethods: AuthMethodInfo[];
  needsSignIn: boolean;
}

export interface AgentLog {
  agent: string;
  line: string;
}

export interface AgentStateChanged {
  agent: string;
  state: "stopped" | "starting" | "ready" | "busy" | "error";
  error: string | null;
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

export interface Channel {
  id: string;
  name: string;
  description: string;
  direct: string;
  members: string[];
}

export interface ChannelsChanged {
  channels: Channel[];
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

export interface Conversation {
  channel: Channel;
  busy: boolean;
  queued: number;
  answering: string;
  usage: Record<string, Usage>;
  permissions: PermissionRequested[];
  sessions: Record<string, MemberSession>;
  messages: Message[];
  more: boolean;
}

export interface Diff {
  path: string;
  oldText: string;
  newText: string;
  newFile: boolean;
}

export interface Location {
  path: string;
  line: number | null;
}

/** What one member's session offers and is set to. Empty lists: the agent offers none (or its session has not opened yet). */
export interface MemberSession {
  modes: ModeInfo[];
  mode: string;
  options: SessionOptionInfo[];
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
  code: "agent-joined" | "agent-left" | "no-recipient" | "agent-unavailable" | null;
}

/** `text` is appended to part `index` (text, thought), or `part` replaces it (tool, plan). */
export interface MessageDelta {
  channel: string;
  messageId: string;
  index: number;
  kind: "text" | "thought" | "tool" | "plan";
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
  kind: "text" | "thought" | "tool" | "plan";
  text: string;
  tool: ToolCall | null;
  plan: PlanEntry[] | null;
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
}

export interface PermissionResolved {
  id: string;
  channel: string;
}

export interface PlanEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority: "high" | "medium" | "low";
}

export interface Problem {
  line: number;
  column: number;
  message: string;
  warning: boolean;
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
}

/** Extension: a sign-in terminal's command ended; the agent was restarted to use the new credentials when it ran. `code` is None when it was killed by a signal. */
export interface SignInTerminalExited {
  terminal: string;
  agent: string;
  code: number | null;
}

/** Extension: a sign-in terminal that was opened (`AgentService.SignInTerminal`). Its output arrives as `signin:output`, its end as `signin:exited`. */
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

export interface ToolCall {
  id: string;
  title: string;
  kind: "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";
  status: "pending" | "in_progress" | "completed" | "failed";
  input: string;
  output: string;
  locations: Location[];
  diffs: Diff[];
}

export interface TurnChanged {
  channel: string;
  busy: boolean;
  queued: number;
  answering: string;
}

export interface Usage {
  used: number;
  size: number;
}

export interface UsageChanged {
  channel: string;
  agent: string;
  usage: Usage;
}
