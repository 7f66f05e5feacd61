// Who answers a message (SPEC §4): every case of tests/corpus/routing.json, the corpus that the
// backend's rules (app/channels/routing.py) are tested against too, so that the composer's preview
// says what the backend will do.

import { describe, expect, test } from "vitest";
import corpus from "../../../tests/corpus/routing.json";
import { route } from "./routing";

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
