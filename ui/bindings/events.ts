// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import type { AgentEvicted, AgentLog, AgentStateChanged, AttentionCounts, ChangesChanged, ChannelsChanged, CheckpointsChanged, CommandsChanged, ConfigChanged, ElicitationRequested, ElicitationResolved, InstallProgress, MessageDelta, MessageUpdated, NotificationOpened, PermissionRequested, PermissionResolved, PermissionRulesChanged, SessionChanged, SignInPrompt, SignInTerminalExited, SignInTerminalOutput, TerminalExited, TerminalOutput, TurnChanged, UsageChanged } from "./models";

/** Every event the backend sends, by its SPEC name. */
export const Events = {
  ConfigChanged: "config:changed",
  AgentState: "agent:state",
  AgentLog: "agent:log",
  ChannelsChanged: "channels:changed",
  MessageUpdated: "message:updated",
  MessageDelta: "message:delta",
  TurnChanged: "turn:changed",
  PermissionRequested: "permission:requested",
  PermissionResolved: "permission:resolved",
  UsageChanged: "usage:changed",
  CommandsChanged: "commands:changed",
  SessionChanged: "session:changed",
  SignInTerminalOutput: "signin:output",
  SignInTerminalExited: "signin:exited",
  SignInPrompt: "signin:prompt",
  TerminalOutput: "terminal:output",
  TerminalExited: "terminal:exited",
  ChangesChanged: "changes:changed",
  CheckpointsChanged: "checkpoints:changed",
  AttentionChanged: "attention:changed",
  NotificationOpened: "notification:opened",
  PermissionRulesChanged: "permission-rules:changed",
  ElicitationRequested: "elicitation:requested",
  ElicitationResolved: "elicitation:resolved",
  InstallProgress: "install:progress",
  AgentEvicted: "agent:evicted",
} as const;

/** The payload type of each event. */
export interface EventPayloads {
  "config:changed": ConfigChanged;
  "agent:state": AgentStateChanged;
  "agent:log": AgentLog;
  "channels:changed": ChannelsChanged;
  "message:updated": MessageUpdated;
  "message:delta": MessageDelta;
  "turn:changed": TurnChanged;
  "permission:requested": PermissionRequested;
  "permission:resolved": PermissionResolved;
  "usage:changed": UsageChanged;
  "commands:changed": CommandsChanged;
  "session:changed": SessionChanged;
  "signin:output": SignInTerminalOutput;
  "signin:exited": SignInTerminalExited;
  "signin:prompt": SignInPrompt;
  "terminal:output": TerminalOutput;
  "terminal:exited": TerminalExited;
  "changes:changed": ChangesChanged;
  "checkpoints:changed": CheckpointsChanged;
  "attention:changed": AttentionCounts;
  "notification:opened": NotificationOpened;
  "permission-rules:changed": PermissionRulesChanged;
  "elicitation:requested": ElicitationRequested;
  "elicitation:resolved": ElicitationResolved;
  "install:progress": InstallProgress;
  "agent:evicted": AgentEvicted;
}

export type EventName = keyof EventPayloads;
