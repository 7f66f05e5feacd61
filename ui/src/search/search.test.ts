// The search state against a fake backend whose answers come when the test says.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SearchResults } from "../../bindings";

interface Call {
  query: string;
  channel: string;
  answer: (results: SearchResults) => void;
  fail: (error: Error) => void;
}

const calls: Call[] = [];
vi.mock("../../bindings", () => ({
  SearchService: {
    Search: (query: string, channel: string) =>
      new Promise<SearchResults>((answer, fail) => calls.push({ query, channel, answer, fail })),
  },
}));

const { search, DEBOUNCE_MS } = await import("./search.svelte");

function found(...ids: string[]): SearchResults {
  return {
    results: ids.map((messageId) => ({
      channel: "c",
      channelName: "general",
      messageId,
      agent: "",
      role: "user",
      createdAt: "2026-12-01T06:00:00Z",
      snippet: messageId,
      highlights: [],
    })),
    more: false,
    indexing: false,
  } as SearchResults;
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.useFakeTimers();
  calls.length = 0;
  search.close();
  search.setQuery("");
  search.unscope();
  vi.runAllTimers();
  calls.length = 0;
});
afterEach(() => vi.useRealTimers());

describe("search", () => {
  it("sends one query after the typing pauses", () => {
    search.show(null);
    search.setQuery("f");
    search.setQuery("fo");
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(calls.map((c) => c.query)).toEqual(["fox"]);
  });

  it("never lets an older query's late answer replace a newer one's", async () => {
    search.show(null);
    search.setQuery("fo");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    expect(calls).toHaveLength(2);
    calls[1]?.answer(found("new"));
    vi.useRealTimers();
    await settle();
    calls[0]?.answer(found("old-1", "old-2"));
    await settle();
    expect(search.results.map((r) => r.messageId)).toEqual(["new"]);
    expect(search.selected).toBe(0);
    expect(search.answered).toBe(true);
  });

  it("shows the backend's error instead of results", async () => {
    search.show(null);
    search.setQuery('"unclosed');
    vi.advanceTimersByTime(DEBOUNCE_MS);
    calls[0]?.fail(new Error("unbalanced quote"));
    vi.useRealTimers();
    await settle();
    expect(search.error).toBe("Unbalanced quote"); // as a sentence
    expect(search.results).toEqual([]);
  });

  it("searches one conversation, and everywhere once the scope is removed", () => {
    search.show({ id: "c1", label: "#general" });
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    search.unscope();
    vi.advanceTimersByTime(0);
    expect(calls.map((c) => [c.query, c.channel])).toEqual([
      ["fox", "c1"],
      ["fox", ""],
    ]);
  });

  it("keeps the shown results selectable when reopened, until the query's answer comes", async () => {
    search.show(null);
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    calls[0]?.answer(found("a", "b"));
    vi.useRealTimers();
    await settle();
    search.move(1);
    expect(search.selected).toBe(1);
    search.close();
    search.show(null); // asks again; Enter meanwhile opens what is selected
    expect(search.answered).toBe(true);
    expect(search.selected).toBe(1);
    search.setQuery("foxes"); // another query starts from its first entry
    expect(search.selected).toBe(0);
  });

  it("asks the last query again when reopened: messages may have come since", () => {
    search.show(null);
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    search.close();
    search.show(null);
    vi.advanceTimersByTime(0);
    expect(calls.map((c) => c.query)).toEqual(["fox", "fox"]);
  });

  it("clears the results when the query is emptied", async () => {
    search.show(null);
    search.setQuery("fox");
    vi.advanceTimersByTime(DEBOUNCE_MS);
    search.setQuery("");
    calls[0]?.answer(found("late"));
    vi.useRealTimers();
    await settle();
    expect(search.results).toEqual([]);
    expect(search.answered).toBe(false);
  });
});
