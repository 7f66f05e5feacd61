import { describe, expect, it } from "vitest";
import { NewlineHold, TerminalFeed, type Screen } from "./feed";
import { keepTail } from "./tail";

/** A screen that records writes and parses only when the test says (done callbacks held). */
class FakeScreen implements Screen {
  log: string[] = [];
  waiting: (() => void)[] = [];
  write(data: string, done: () => void): void {
    this.log.push(data);
    this.waiting.push(done);
  }
  reset(): void {
    this.log.push("<reset>");
  }
  parse(): void {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((done) => done());
  }
}

/** Frames that run when the test says. */
class Frames {
  queued: (() => void)[] = [];
  schedule = (callback: () => void): void => void this.queued.push(callback);
  run(): void {
    const queued = this.queued;
    this.queued = [];
    queued.forEach((callback) => callback());
  }
}

function feed(maxPending = 1000): { screen: FakeScreen; frames: Frames; run: TerminalFeed } {
  const screen = new FakeScreen();
  const frames = new Frames();
  const run = new TerminalFeed(screen, {
    schedule: frames.schedule,
    maxPending,
    skipped: (count) => `skipped ${count}`,
    interval: 0,
  });
  return { screen, frames, run };
}

describe("keepTail", () => {
  it("keeps short text whole", () => {
    expect(keepTail("abc\n", 10)).toEqual({ text: "abc\n", dropped: 0 });
  });

  it("cuts after the next line break so that the kept text starts a line", () => {
    const text = "first line\nsecond line\nthird\n";
    const kept = keepTail(text, 20);
    expect(kept.text).toBe("second line\nthird\n");
    expect(kept.dropped + kept.text.length).toBe(text.length);
  });

  it("cuts at the limit when no line break is near", () => {
    const text = "x".repeat(10_000);
    expect(keepTail(text, 100).text).toHaveLength(100);
  });

  it("never splits an emoji's surrogate pair", () => {
    const text = "a😀b";
    expect(keepTail(text, 2).text).toBe("b");
  });
});

describe("TerminalFeed", () => {
  it("writes what arrived during a frame in one write, at the frame", () => {
    const { screen, frames, run } = feed();
    run.push("a");
    run.push("b");
    expect(screen.log).toEqual([]);
    frames.run();
    expect(screen.log).toEqual(["ab"]);
    expect(run.written).toBe(2);
  });

  it("waits for xterm to parse a write before the next one", () => {
    const { screen, frames, run } = feed();
    run.push("one ");
    frames.run();
    run.push("two ");
    run.push("three");
    expect(frames.queued).toHaveLength(0); // nothing scheduled while xterm is busy
    screen.parse();
    frames.run();
    expect(screen.log).toEqual(["one ", "two three"]);
  });

  it("keeps the tail of a flood and says how much it skipped", () => {
    const { screen, frames, run } = feed(100);
    run.push("start\n");
    frames.run();
    let total = "start\n".length;
    for (let i = 0; i < 50; i++) {
      run.push(`line ${i}\n`);
      total += `line ${i}\n`.length;
    }
    screen.parse();
    frames.run();
    const written = screen.log[1] ?? "";
    expect(written).toContain("skipped");
    expect(written.endsWith("line 49\n")).toBe(true);
    expect(written).not.toContain("line 0\n");
    expect(run.skippedCount).toBeGreaterThan(0);
    expect(run.written + run.skippedCount).toBe(total);
  });

  it("replaces the screen's content, ignoring a write of before the reset", () => {
    const { screen, frames, run } = feed();
    run.push("live");
    frames.run();
    run.replace("final\n");
    screen.parse(); // the callback of "live": from before the reset, ignored
    frames.run();
    expect(screen.log).toEqual(["live", "<reset>", "final\n"]);
    expect(run.written).toBe(6);
  });

  it("writes nothing once disposed", () => {
    const { screen, frames, run } = feed();
    run.push("a");
    run.dispose();
    frames.run();
    run.push("b");
    frames.run();
    expect(screen.log).toEqual([]);
  });
});

describe("NewlineHold", () => {
  it("writes a final line break only when more output follows", () => {
    const hold = new NewlineHold();
    expect(hold.take("one\n")).toBe("one");
    expect(hold.take("two\nthree")).toBe("\ntwo\nthree");
    expect(hold.take("\n")).toBe("");
    expect(hold.take("\n")).toBe("\n");
    expect(hold.take("four")).toBe("\nfour");
    hold.take("five\n");
    hold.reset();
    expect(hold.take("six")).toBe("six");
  });
});

describe("TerminalFeed's pace", () => {
  it("writes a flood at most once per interval", () => {
    const screen = new FakeScreen();
    const frames = new Frames();
    let clock = 0;
    const timers: { at: number; run: () => void }[] = [];
    const run = new TerminalFeed(screen, {
      schedule: frames.schedule,
      interval: 100,
      now: () => clock,
      later: (callback, ms) => void timers.push({ at: clock + ms, run: callback }),
    });
    run.push("one");
    frames.run(); // the first write goes at once
    screen.parse();
    clock = 30;
    run.push("two");
    expect(frames.queued).toHaveLength(0); // too soon: waits for the interval
    expect(timers.map((t) => t.at)).toEqual([100]);
    run.push("three");
    clock = 100;
    timers.shift()?.run();
    frames.run();
    expect(screen.log).toEqual(["one", "twothree"]);
  });
});
