// The composer's attachments before sending, against a fake bridge: what is attached by path, by
// bytes, refused with why, taken back, and forgotten once sent.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Attachment } from "../../../bindings";

const bridge = vi.hoisted(() => ({
  AttachFile: vi.fn(),
  AttachImage: vi.fn(),
  RemoveAttachment: vi.fn(),
}));

vi.mock("../../../bindings", () => ({ AttachmentService: bridge }));

const { StagedAttachments, base64Of, humanSize, IMAGE_LIMIT, MAX_ATTACHMENTS } = await import(
  "./staged.svelte"
);

let counter = 0;
function attachment(name: string, kind: "file" | "image" = "file"): Attachment {
  counter += 1;
  return { id: `A${counter}`, kind, name, path: `/home/me/${name}`, mime: "", size: 10 };
}

function pageFile(name: string, type: string, bytes: number[], fullPath?: string) {
  return {
    name,
    type,
    size: bytes.length,
    pywebviewFullPath: fullPath,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}

beforeEach(() => {
  vi.resetAllMocks();
  bridge.AttachFile.mockImplementation(async (_channel: string, path: string) =>
    attachment(path.split("/").pop() ?? path),
  );
  bridge.AttachImage.mockImplementation(async (_channel: string, name: string) => attachment(name, "image"));
  bridge.RemoveAttachment.mockResolvedValue(undefined);
});

describe("attaching", () => {
  it("attaches chosen files by path, in order, per conversation", async () => {
    const staged = new StagedAttachments();
    await staged.attachPaths("c1", ["/home/me/a.txt", "/home/me/b.pdf"]);
    expect(staged.of("c1").map((a) => a.name)).toEqual(["a.txt", "b.pdf"]);
    expect(staged.of("c2")).toEqual([]);
    expect(bridge.AttachFile).toHaveBeenCalledWith("c1", "/home/me/a.txt");
    expect(staged.ids("c1")).toEqual(staged.of("c1").map((a) => a.id));
  });

  it("shows why the backend refused a file and keeps the others", async () => {
    const staged = new StagedAttachments();
    bridge.AttachFile.mockImplementationOnce(async () => attachment("ok.txt"));
    bridge.AttachFile.mockRejectedValueOnce(new Error("/x is not a file"));
    await staged.attachPaths("c1", ["/home/me/ok.txt", "/x"]);
    expect(staged.of("c1").map((a) => a.name)).toEqual(["ok.txt"]);
    expect(staged.error("c1")).toBe("/x is not a file");
  });

  it("attaches a dropped file by the full path the window gave", async () => {
    const staged = new StagedAttachments();
    await staged.attachFiles("c1", [pageFile("notes.md", "text/markdown", [1], "/home/me/notes.md")]);
    expect(bridge.AttachFile).toHaveBeenCalledWith("c1", "/home/me/notes.md");
    expect(bridge.AttachImage).not.toHaveBeenCalled();
  });

  it("sends a pasted image's bytes as base64", async () => {
    const staged = new StagedAttachments();
    await staged.attachFiles("c1", [pageFile("shot.png", "image/png", [0x89, 0x50, 0x4e, 0x47])]);
    expect(bridge.AttachImage).toHaveBeenCalledWith("c1", "shot.png", "image/png", "iVBORw==");
    expect(staged.of("c1").map((a) => a.kind)).toEqual(["image"]);
  });

  it("refuses an image past 10 MB and a file without a path, saying why, without calling", async () => {
    const staged = new StagedAttachments();
    const big = { ...pageFile("big.png", "image/png", []), size: IMAGE_LIMIT + 1 };
    await staged.attachFiles("c1", [big, pageFile("doc.pdf", "application/pdf", [1])]);
    expect(bridge.AttachImage).not.toHaveBeenCalled();
    expect(bridge.AttachFile).not.toHaveBeenCalled();
    expect(staged.error("c1")).toContain("big.png is too big");
    expect(staged.error("c1")).toContain("doc.pdf: the window does not say where this file is");
    expect(staged.of("c1")).toEqual([]);
  });

  it(`stops at ${MAX_ATTACHMENTS} attachments for one message`, async () => {
    const staged = new StagedAttachments();
    await staged.attachPaths("c1", Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => `/f${i}`));
    expect(staged.of("c1")).toHaveLength(MAX_ATTACHMENTS);
    expect(staged.error("c1")).toContain(`${MAX_ATTACHMENTS} attachments at most`);
  });

  it("is busy while an attachment is on its way", async () => {
    const staged = new StagedAttachments();
    let finish = (_: Attachment) => {};
    bridge.AttachFile.mockImplementationOnce(() => new Promise<Attachment>((r) => (finish = r)));
    const attaching = staged.attachPaths("c1", ["/slow.txt"]);
    expect(staged.busy("c1")).toBe(true);
    finish(attachment("slow.txt"));
    await attaching;
    expect(staged.busy("c1")).toBe(false);
  });
});

describe("before and after sending", () => {
  it("takes one back: gone from the chips and from the backend", async () => {
    const staged = new StagedAttachments();
    await staged.attachPaths("c1", ["/a", "/b"]);
    const [first, second] = staged.of("c1");
    await staged.remove("c1", first!.id);
    expect(staged.of("c1")).toEqual([second]);
    expect(bridge.RemoveAttachment).toHaveBeenCalledWith("c1", first!.id);
  });

  it("forgets the ones sent and keeps one attached meanwhile", async () => {
    const staged = new StagedAttachments();
    await staged.attachPaths("c1", ["/a"]);
    const sent = staged.ids("c1");
    await staged.attachPaths("c1", ["/b"]);
    staged.sent("c1", sent);
    expect(staged.of("c1").map((a) => a.name)).toEqual(["b"]);
  });
});

describe("helpers", () => {
  it("says sizes as the backend's lines do", () => {
    expect([humanSize(22), humanSize(12 * 1024), humanSize(1.5 * 1024 * 1024)]).toEqual([
      "22 B",
      "12 KB",
      "1.5 MB",
    ]);
  });

  it("encodes large buffers in base64 without overflowing the call stack", () => {
    const bytes = new Uint8Array(200_000).fill(65);
    expect(atob(base64Of(bytes.buffer))).toBe("A".repeat(200_000));
  });
});
