import { describe, expect, it } from "vitest";
import { notificationsOn, withNotifications } from "./notificationsSetting";

describe("the notifications setting in the YAML text", () => {
  it("is on when the key is absent or true, off when false", () => {
    expect(notificationsOn("theme: dark\n")).toBe(true);
    expect(notificationsOn("notifications: true # yes\n")).toBe(true);
    expect(notificationsOn("theme: dark\nnotifications: false\n")).toBe(false);
  });

  it("ignores a nested key of the same name", () => {
    expect(notificationsOn("agents:\n  - name: a\n    notifications: false\n")).toBe(true);
  });

  it("replaces the value of an existing line and keeps its comment", () => {
    const text = "theme: system\nnotifications: true      # tell me\nagents: []\n";
    expect(withNotifications(text, false)).toBe(
      "theme: system\nnotifications: false      # tell me\nagents: []\n",
    );
  });

  it("fills a line written without a value", () => {
    expect(withNotifications("notifications:\n", false)).toBe("notifications: false\n");
  });

  it("adds the line after language, else theme, else at the top", () => {
    expect(withNotifications("theme: dark\nlanguage: fr   # fr\nagents: []\n", false)).toBe(
      "theme: dark\nlanguage: fr   # fr\nnotifications: false\nagents: []\n",
    );
    expect(withNotifications("theme: dark\nagents: []\n", false)).toBe(
      "theme: dark\nnotifications: false\nagents: []\n",
    );
    expect(withNotifications("agents: []\n", false)).toBe("notifications: false\nagents: []\n");
  });

  it("round-trips: what it writes is what it reads", () => {
    for (const on of [true, false]) {
      expect(notificationsOn(withNotifications("agents: []\n", on))).toBe(on);
      expect(notificationsOn(withNotifications("notifications: true\n", on))).toBe(on);
    }
  });
});
