import { afterEach, describe, expect, it } from "vitest";
import { clockOf } from "./clock";
import { dateTimeOf, timeOf } from "./format";

// Every minute of a day would be 1,440 cases; each hour, and the minutes that change digits.
const TIMES = Array.from({ length: 24 }, (_, hour) => [0, 5, 9, 10, 59].map((minute) => [hour, minute])).flat();

describe("clockOf", () => {
  it.each(["en", "fr"])("writes what Intl writes for %s, two-digit hours and minutes", (language) => {
    const intl = new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" });
    for (const [hour, minute] of TIMES) {
      const date = new Date(2026, 11, 3, hour, minute);
      // ICU versions differ in the space before AM/PM (U+0020 or U+202F): the same to a reader.
      expect(clockOf(date, language), `${hour}:${minute}`).toBe(intl.format(date).replace(/\s/gu, " "));
    }
  });

  it("gives midnight and noon their own hour", () => {
    expect(clockOf(new Date(2026, 0, 1, 0, 7), "en")).toBe("12:07 AM");
    expect(clockOf(new Date(2026, 0, 1, 12, 7), "en")).toBe("12:07 PM");
    expect(clockOf(new Date(2026, 0, 1, 0, 7), "fr")).toBe("00:07");
  });
});

describe("a message's times", () => {
  const Real = Intl.DateTimeFormat;
  afterEach(() => {
    Intl.DateTimeFormat = Real;
  });

  it("make no Intl date format for the time shown, only for the long date of a tooltip", () => {
    let made = 0;
    Intl.DateTimeFormat = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made += 1;
      }
    } as typeof Real;
    expect(timeOf("2026-12-03T14:03:00")).toBe("02:03 PM");
    expect(timeOf("not a date")).toBe("");
    expect(made).toBe(0);
    expect(dateTimeOf("2026-12-03T14:03:00")).toContain("2026");
    expect(made).toBe(1);
  });
});
