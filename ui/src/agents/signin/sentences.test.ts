import { describe, expect, it } from "vitest";
import type { AuthMethodInfo } from "../../../bindings";
import { keySentence, signedInSentence, signingInSentence, signInTitle } from "./sentences";

function method(partial: Partial<AuthMethodInfo>): AuthMethodInfo {
  return { id: "m", name: "M", description: "", type: "env_var", vars: [], link: "", command: [], saved: true, ...partial };
}

describe("sign-in sentences", () => {
  it("says a key method by its variables, not by its label", () => {
    const codex = method({ name: "Use CODEX_API_KEY", vars: [{ name: "CODEX_API_KEY", secret: true, label: "" }] });
    expect(keySentence("Codex", codex)).toBe("Signed in to Codex with your CODEX_API_KEY key");
    const two = method({
      vars: [
        { name: "AWS_KEY", secret: true, label: "" },
        { name: "AWS_SECRET", secret: true, label: "" },
      ],
    });
    expect(keySentence("Bedrock", two)).toBe("Signed in to Bedrock with your keys AWS_KEY, AWS_SECRET");
    expect(keySentence("X", method({ name: "Use a key" }))).toBe("Signed in to X with “Use a key”.");
  });

  it("quotes any other method's name", () => {
    expect(signedInSentence("Gemini", "Log in with Google")).toBe("Signed in to Gemini with “Log in with Google”.");
    expect(signedInSentence("Gemini", " ")).toBe("Signed in to Gemini.");
    expect(signingInSentence("Gemini", "Log in with Google")).toBe("Signing in to Gemini with “Log in with Google”…");
    expect(signInTitle("Claude", "Claude Subscription")).toBe("Sign in to Claude with “Claude Subscription”");
    expect(signInTitle("Claude", "")).toBe("Sign in to Claude");
  });
});
