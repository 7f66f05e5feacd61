// Who answers a message (SPEC §4): every case of tests/corpus/routing.json, the corpus that the
// backend's rules (app/channels/routing.py) are tested against too, so that the composer's preview
// says what the backend will do.

import { describe, expect, test } from "vitest";
import corpus from "../../../tests/corpus/routing.json";
import { notConfigured, route } from "./routing";

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
