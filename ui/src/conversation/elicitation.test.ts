import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ElicitationField, ElicitationRequested } from "../../bindings";

type Handler = (payload: unknown) => void;
const bus = vi.hoisted(() => ({ handlers: new Map<string, Handler>() }));
const service = vi.hoisted(() => ({
  Elicitations: vi.fn<() => Promise<ElicitationRequested[]>>(),
  AnswerElicitation: vi.fn<(id: string, action: string, content?: unknown) => Promise<void>>(),
}));
vi.mock("../../bindings", () => ({
  InboxService: { Elicitations: service.Elicitations },
  ChannelService: { AnswerElicitation: service.AnswerElicitation },
  On: (name: string, handler: Handler) => {
    bus.handlers.set(name, handler);
    return () => bus.handlers.delete(name);
  },
}));

service.Elicitations.mockResolvedValue([]);
const { content, initialValues, isWebAddress, problems } = await import("./elicitationForm");
const { questions } = await import("./questions.svelte");

function field(name: string, kind: ElicitationField["kind"], extra: Partial<ElicitationField> = {}): ElicitationField {
  return {
    name,
    kind,
    title: "",
    description: "",
    required: false,
    default: null,
    choices: [],
    minimum: null,
    maximum: null,
    minLength: null,
    maxLength: null,
    minItems: null,
    maxItems: null,
    format: "",
    ...extra,
  };
}

const FIELDS = [
  field("name", "string", { title: "Name", required: true, minLength: 2, default: "demo" }),
  field("replicas", "integer", { minimum: 1, maximum: 5, default: 2 }),
  field("ratio", "number"),
  field("confirm", "boolean", { default: true }),
  field("region", "enum", { choices: [{ value: "eu", title: "Europe" }] }),
  field("features", "multiselect", { choices: [{ value: "a", title: "A" }, { value: "b", title: "B" }], maxItems: 1 }),
];

function question(id: string, messageId = "m1"): ElicitationRequested {
  return { id, channel: "c1", agent: "asker", messageId, mode: "form", message: "?", title: "", description: "",
           fields: FIELDS, url: "" }; // prettier-ignore
}

describe("an agent's form", () => {
  it("starts with the schema's defaults", () => {
    expect(initialValues(FIELDS)).toEqual({
      name: "demo",
      replicas: "2",
      ratio: "",
      confirm: true,
      region: "",
      features: [],
    });
  });

  it("says what is wrong with each field before anything is sent", () => {
    const values = { ...initialValues(FIELDS), name: "", replicas: "2.5", ratio: "x", features: ["a", "b"] };
    expect(problems(FIELDS, values)).toEqual({
      name: "Name is required",
      replicas: "replicas must be a whole number",
      ratio: "ratio must be a number",
      confirm: "",
      region: "",
      features: "choose at most 1 for features",
    });
    expect(problems(FIELDS, { ...values, name: "x", replicas: "9", ratio: "", features: [] })).toMatchObject({
      name: "Name needs at least 2 characters",
      replicas: "replicas must be at most 5",
      ratio: "",
      features: "",
    });
    expect(problems(FIELDS, { ...values, region: "mars" }).region).toBe("region must be one of its choices");
  });

  it("sends each value in its kind and leaves empty optional fields out", () => {
    const values = { ...initialValues(FIELDS), replicas: "3", ratio: "0.25", features: ["b"] };
    expect(content(FIELDS, values)).toEqual({ name: "demo", replicas: 3, ratio: 0.25, confirm: true, features: ["b"] });
  });

  it("offers only web addresses to open", () => {
    expect(isWebAddress("https://example.com/a?b=1")).toBe(true);
    expect(isWebAddress("http://127.0.0.1:8080/")).toBe(true);
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "not a url", ""]) {
      expect(isWebAddress(url)).toBe(false);
    }
  });
});

describe("the questions waiting", () => {
  beforeEach(() => {
    questions.list = [];
    service.AnswerElicitation.mockReset();
  });

  it("follow the events and leave once answered", async () => {
    bus.handlers.get("elicitation:requested")?.(question("q1"));
    bus.handlers.get("elicitation:requested")?.(question("q1")); // twice: kept once
    bus.handlers.get("elicitation:requested")?.(question("q2", "m2"));
    expect(questions.forMessage("m1").map((q) => q.id)).toEqual(["q1"]);

    service.AnswerElicitation.mockResolvedValue(undefined);
    await questions.answer(question("q1"), "accept", { name: "web" });
    expect(service.AnswerElicitation).toHaveBeenCalledWith("q1", "accept", { name: "web" });
    expect(questions.list.map((q) => q.id)).toEqual(["q2"]);

    bus.handlers.get("elicitation:resolved")?.({ id: "q2", channel: "c1" });
    expect(questions.list).toEqual([]);
  });

  it("stay when the answer is refused", async () => {
    bus.handlers.get("elicitation:requested")?.(question("q3"));
    service.AnswerElicitation.mockRejectedValue(new Error("Name is required"));
    await expect(questions.answer(question("q3"), "accept", {})).rejects.toThrow("Name is required");
    expect(questions.list.map((q) => q.id)).toEqual(["q3"]);
  });

  it("go with a deleted channel", () => {
    bus.handlers.get("elicitation:requested")?.(question("q4"));
    bus.handlers.get("channels:changed")?.({ channels: [] });
    expect(questions.list).toEqual([]);
  });
});
