import { describe, expect, it } from "vitest";
import { messageOf, sentence } from "./errors";

describe("errors shown in the window", () => {
  it("start with a capital letter", () => {
    expect(messageOf(new Error("a description has at most 64 characters"))).toBe(
      "A description has at most 64 characters",
    );
  });

  it("start with a capital letter in French too, accents included", () => {
    expect(sentence("une description a au plus 64 caractères")).toBe("Une description a au plus 64 caractères");
    expect(sentence("écriture refusée")).toBe("Écriture refusée");
  });

  it("leave a first word that is a name or a path as written", () => {
    expect(sentence("demo-2 is not running")).toBe("demo-2 is not running");
    expect(sentence("/tmp/x.yaml: not found")).toBe("/tmp/x.yaml: not found");
    expect(sentence("`theme` must be one of")).toBe("`theme` must be one of");
  });

  it("leave capitalized and empty texts alone", () => {
    expect(sentence("Already fine")).toBe("Already fine");
    expect(sentence("")).toBe("");
    expect(messageOf("no Error object")).toBe("No Error object");
  });
});
