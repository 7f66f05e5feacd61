// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AroundPage, NewerPage, SearchResults } from "./models";

/** Extension: the page of messages around `messageId` (it included), to open a conversation at a message found. 50 before it, it, 49 after it; at the end of the conversation the live answer and queued messages follow, as in `Conversation`. */
export function Around(id: string, messageId: string): Promise<AroundPage> {
  return call("SearchService", "Around", id, messageId);
}

/** Extension: the 100 messages after `afterId` (after an `Around` page). */
export function Newer(id: string, afterId: string): Promise<NewerPage> {
  return call("SearchService", "Newer", id, afterId);
}

/** Extension: full-text search of every conversation's messages (words, prefixes, "quoted phrases"; accents and case folded), newest first; only `channel`'s if given. The last word matches as a prefix while typed; `indexing` while the index catches up. */
export function Search(query: string, channel?: string, limit?: number): Promise<SearchResults> {
  return call("SearchService", "Search", query, channel, limit);
}
