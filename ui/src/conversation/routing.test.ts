// Who answers a message (SPEC §4): every case of tests/corpus/routing.json, the corpus that the
// backend's rules (app/channels/routing.py) are tested against too, so that the composer's preview
// says what the backend will do.

import { describe, expect, test } from "vitest";
import corpus from "../../../tests/corpus/routing.json";
import { notConfigured, route, withRecipients } from "./routing";

describe("the composer's preview routes the message as the corpus says", () => {
  for (const c of corpus.cases) {
    test(c.name, () => {
      const got = route(c.text, {
        configured: c.configured,
        members: c.members,
        direct: c.direct,
        lastResponder: c.lastResponder,
      });
      expect(got).toEqual(c.expect);
    });
  }
});

describe("recipients the configuration no longer has", () => {
  test("the last responder renamed away is routed to, and named as not configured", () => {
    const ctx = { configured: ["demo", "alfa"], members: ["alpha", "demo"], lastResponder: "alpha" };
    const got = route("and now?", ctx);
    expect(got.recipients).toEqual(["alpha"]); // SPEC §4 unchanged: the backend says why
    expect(notConfigured(got, ctx.configured)).toEqual(["alpha"]);
  });

  test("configured recipients are never named", () => {
    const ctx = { configured: ["demo", "alpha"], members: ["alpha", "demo"] };
    expect(notConfigured(route("@demo @alpha hi", ctx), ctx.configured)).toEqual([]);
  });
});

describe("who will answer, chosen in the preview, rewrites the leading mentions", () => {
  const ctx = { configured: ["alice", "bob", "carol"], members: ["alice", "bob", "carol"] };

  test("the chosen replace the leading mentions, the rest stays as typed", () => {
    expect(withRecipients("@alice, @bob what now?", ["bob", "carol"], ctx)).toBe("@bob @carol what now?");
    expect(route(withRecipients("@alice hi", ["carol", "alice"], ctx), ctx).recipients).toEqual(["carol", "alice"]);
  });

  test("without a leading mention the chosen go first", () => {
    expect(withRecipients("what now?", ["bob"], ctx)).toBe("@bob what now?");
    expect(withRecipients("", ["bob"], ctx)).toBe("@bob ");
  });

  test("@all gives way to the chosen members", () => {
    expect(withRecipients("@all status", ["alice", "carol"], ctx)).toBe("@alice @carol status");
  });

  test("a mention later in the text keeps its place and is not repeated", () => {
    expect(withRecipients("@alice ask @bob", ["alice", "carol", "bob"], ctx)).toBe("@alice @carol ask @bob");
  });

  test("a leading @word that names no agent is text", () => {
    expect(withRecipients("@zed is down", ["bob"], ctx)).toBe("@bob @zed is down");
  });

  test("a command after the mentions stays a command", () => {
    const text = withRecipients("@alice /help", ["bob"], ctx);
    expect(text).toBe("@bob /help");
    expect(route(text, ctx)).toMatchObject({ recipients: ["bob"], command: true, text: "/help" });
  });
});
