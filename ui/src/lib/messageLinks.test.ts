import { describe, expect, test } from "vitest";
import { messageLink, parseMessageLink, splitMessageLinks } from "./messageLinks";

const CHANNEL = "01JB2Q8ZK4M7V3T9X5N6P0R8SA";
const MESSAGE = "01JB2Q9A7C3D5E6F8G9H0J1K2M";
const LINK = `sidekicks://message/${CHANNEL}/${MESSAGE}`;

describe("message links", () => {
  test("a link made for a message leads back to it", () => {
    expect(messageLink(CHANNEL, MESSAGE)).toBe(LINK);
    expect(parseMessageLink(LINK)).toEqual({ channel: CHANNEL, message: MESSAGE });
  });

  test.each([
    ["another sidekicks address", "sidekicks://settings"],
    ["a path after the ids", `${LINK}/more`],
    ["a query after the ids", `${LINK}?x=1`],
    ["lower case ids", LINK.toLowerCase()],
    ["an id too short", `sidekicks://message/${CHANNEL}/01JB2Q9A7C`],
    ["a letter Crockford's base32 has not", `sidekicks://message/${CHANNEL}/01JB2Q9A7C3D5E6F8G9H0J1K2U`],
    ["spaces around it", ` ${LINK}`],
    ["a web address", "https://example.com"],
    ["javascript", "javascript:alert(1)"],
    ["nothing", ""],
    ["null", null],
  ])("%s is not a message link", (_name, href) => {
    expect(parseMessageLink(href)).toBeNull();
  });

  test("links written in a text are found between its words", () => {
    expect(splitMessageLinks(`see ${LINK}, and ${LINK}`)).toEqual(["see ", { link: LINK }, ", and ", { link: LINK }]);
    expect(splitMessageLinks(LINK)).toEqual([{ link: LINK }]);
    expect(splitMessageLinks("no link here")).toEqual(["no link here"]);
  });

  test("a link that goes on with more characters is not cut into one", () => {
    expect(splitMessageLinks(`${LINK}X`)).toEqual([`${LINK}X`]);
    expect(splitMessageLinks(`${LINK}/more`)).toEqual([`${LINK}/more`]);
  });
});
