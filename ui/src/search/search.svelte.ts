// The search window's state: open or not, the query, an optional scope (one conversation), and
// the results of the last query typed. Queries are sent DEBOUNCE_MS after the last keystroke;
// an answer that comes back after a newer query was sent is dropped (LatestOnly).

import { SearchService, type SearchHit } from "../../bindings";
import { agents } from "../lib/agents.svelte";
import { channels } from "../lib/channels.svelte";
import { messageOf } from "../lib/errors";
import { goToTargets, type GoTo } from "./goto";
import { LatestOnly, moveSelection, newestFirst } from "./results";

export const DEBOUNCE_MS = 120;
/** Results asked for at once (the backend says `more` past them). */
export const RESULTS_LIMIT = 50;

export interface Scope {
  id: string;
  /** "#general", or the agent's title for a direct conversation. */
  label: string;
}

class SearchState {
  open = $state(false);
  query = $state("");
  scope = $state.raw<Scope | null>(null);
  results = $state.raw<SearchHit[]>([]);
  /** Issue 29: the channels, conversations and agents the query names, listed first; found at
   *  once on this side (the page knows them), never in a scoped search. */
  goto = $state.raw<GoTo[]>([]);
  more = $state(false);
  /** The index is still catching up with the history: some messages may be missing. */
  indexing = $state(false);
  error = $state("");
  /** A query is on its way. */
  searching = $state(false);
  /** The results shown answer the current query and scope (else they are an older query's). */
  answered = $state(false);
  /** Among the go-to entries, then the results (an index into both, in that order). */
  selected = $state(-1);
  /** The dialog's opener, for the search button (set by SearchDialog while it is mounted). */
  opener: (() => void) | null = null;

  #latest = new LatestOnly();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Opens the window, searching everywhere or in one conversation. The last query is kept
   *  (selected in the field: typing replaces it) and asked again: messages came since. */
  show(scope: Scope | null): void {
    if (scope?.id !== this.scope?.id) this.answered = false;
    this.scope = scope;
    this.open = true;
    this.#schedule(0);
  }

  close(): void {
    this.open = false;
    clearTimeout(this.#timer);
    if (this.searching) {
      this.#latest.forget(); // a reopened window asks again
      this.searching = false;
      this.answered = false;
    }
  }

  setQuery(query: string): void {
    if (query === this.query) return;
    this.query = query;
    this.answered = false;
    this.selected = -1; // another query: its first entry, once there is one
    this.#schedule(DEBOUNCE_MS);
  }

  /** Removes the scope: the same query, everywhere. */
  unscope(): void {
    if (!this.scope) return;
    this.scope = null;
    this.answered = false;
    this.#schedule(0);
  }

  move(step: number): void {
    this.selected = moveSelection(this.selected, step, this.goto.length + this.results.length);
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.goto = this.scope ? [] : goToTargets(this.query, channels.all, agents.list);
    // The results shown stay selectable until the answer replaces them: reopened with the same
    // query, Enter opens the entry selected at once (it did nothing until the query came back).
    const shown = this.goto.length + this.results.length;
    if (this.selected < 0 || this.selected >= shown) this.selected = shown > 0 ? 0 : -1;
    if (!this.query.trim()) {
      this.#latest.forget();
      this.results = [];
      this.more = false;
      this.error = "";
      this.searching = false;
      this.answered = false;
      this.selected = -1;
      return;
    }
    this.#timer = setTimeout(() => void this.#run(), delay);
  }

  async #run(): Promise<void> {
    const ticket = this.#latest.next();
    this.searching = true;
    try {
      const found = await SearchService.Search(this.query, this.scope?.id ?? "", RESULTS_LIMIT);
      if (!this.#latest.current(ticket)) return;
      this.results = newestFirst(found.results);
      this.more = found.more;
      this.indexing = (found as Partial<{ indexing: boolean }>).indexing === true;
      this.error = "";
      if (this.selected >= this.goto.length || this.selected < 0) {
        this.selected = this.goto.length + this.results.length > 0 ? 0 : -1;
      }
    } catch (err) {
      if (!this.#latest.current(ticket)) return;
      this.results = [];
      this.more = false;
      this.error = messageOf(err);
      this.selected = this.goto.length > 0 ? 0 : -1;
    }
    this.searching = false;
    this.answered = true;
  }
}

export const search = new SearchState();
