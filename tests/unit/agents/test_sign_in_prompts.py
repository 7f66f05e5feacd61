"""The web address and the code prompt found in what a sign-in prints (sign_in_prompts.py):
gemini's lines on stdout, claude's login screen on a terminal (hard-wrapped, between escape
codes), OSC 8 links, and prose that must not be taken for either."""

from __future__ import annotations

from app.agents.sign_in_prompts import Found, PromptWatch, asks_code, find, find_url

CLAUDE_URL = (
    "https://claude.ai/oauth/authorize?code=true&client_id=9d1c250a-e61b-44d9-88ed-5944d1962f5e"
    "&response_type=code&redirect_uri=https%3A%2F%2Fconsole.anthropic.com%2Foauth%2Fcode%2Fcallback"
    "&scope=org%3Acreate_api_key+user%3Aprofile+user%3Ainference&code_challenge=Xj3kq-abc_DEF"
    "&code_challenge_method=S256&state=4f1c2b"
)


def wrapped(url: str, width: int) -> list[str]:
    return [url[i : i + width] for i in range(0, len(url), width)]


def test_gemini_on_stdout_gives_the_address_then_asks_for_the_code() -> None:
    url = "https://accounts.google.com/o/oauth2/v2/auth?state=abc&scope=a%20b"
    watch = PromptWatch()
    lines = ["Please visit the following URL to authorize the application:", "", url, ""]
    for line in lines[:-1]:
        assert watch.feed(line + "\n") in (None, Found(url, False))
    assert watch.found == Found(url, False)
    # The prompt has no newline: it is the unfinished line.
    assert watch.feed("", "Enter the authorization code: ") == Found(url, True)
    assert watch.feed("Enter the authorization code: \n") is None  # nothing new


def test_claudes_hard_wrapped_address_between_escape_codes_is_joined() -> None:
    screen = (
        "\x1b[2K\x1b[1A\x1b[2K\x1b[G\x1b[1mBrowser didn't open? Use the url below to sign in:"
        "\x1b[22m\r\n\r\n"
        + "".join(f"\x1b[2m{piece}\x1b[22m\r\n" for piece in wrapped(CLAUDE_URL, 64))
        + "\r\n\x1b[36mPaste code here if prompted > \x1b[39m\x1b[?25h"
    )
    assert len(wrapped(CLAUDE_URL, 64)) == 5
    assert find(screen) == Found(CLAUDE_URL, True)
    # Through a pty (ONLCR), the program's "\r\n" arrives as "\r\r\n": still one line end.
    assert find(screen.replace("\n", "\r\n")) == Found(CLAUDE_URL, True)


def test_an_address_in_a_box_or_indented_is_joined_without_its_borders() -> None:
    pieces = wrapped(CLAUDE_URL, 60)
    boxed = "╭────╮\n" + "".join(f"│ {p.ljust(60)} │\n" for p in pieces) + "╰────╯\n"
    assert find_url(boxed) == CLAUDE_URL
    indented = "Open:\n" + "".join(f"   {p}\n" for p in pieces)
    assert find_url(indented) == CLAUDE_URL


def test_an_osc8_link_is_taken_as_it_is() -> None:
    text = "Sign in at \x1b]8;;https://example.test/login?x=1\x07this page\x1b]8;;\x07.\n"
    assert find_url(text) == "https://example.test/login?x=1"
    st = "\x1b]8;id=1;https://example.test/st\x1b\\here\x1b]8;;\x1b\\"
    assert find_url(st) == "https://example.test/st"


def test_prose_after_an_address_is_not_joined_to_it_and_punctuation_is_left_out() -> None:
    assert find_url("See https://example.test/docs.\nThen come back.\n") == (
        "https://example.test/docs"
    )
    assert find_url("(https://example.test/a_(b))") == "https://example.test/a_(b)"
    # A short line is not a wrapped one: the next word stays out.
    assert find_url("https://example.test/x\nDone\n") == "https://example.test/x"
    # The last address wins (a program that prints a new one).
    assert find_url("https://one.test/a\n\nhttps://two.test/b\n") == "https://two.test/b"
    assert find_url("no address here, only ftp://files.test/x and https://\n") == ""


def test_a_code_is_asked_only_by_a_prompt_among_the_last_lines() -> None:
    assert asks_code("Paste your code: ")
    assert asks_code("Enter the authorization code:")
    assert asks_code("│ Paste code here if prompted > │\n│ │\n")
    # Shown codes and old prompts are not asks.
    assert not asks_code("Enter this one-time code (expires in 15 minutes)\n   ABCD-EFGH\n")
    assert not asks_code("Paste your code: \nSigned in ✓\nLogin successful.\nBye\n")
    assert not asks_code("Open the page and sign in.\n")


def test_once_asked_a_code_stays_asked_as_the_person_types() -> None:
    watch = PromptWatch()
    assert watch.feed("Paste code here if prompted > ") == Found("", True)
    assert watch.feed("a") is None
    assert watch.found.asks_code


def test_the_tail_is_bounded() -> None:
    watch = PromptWatch()
    watch.feed("https://example.test/first\n")
    for _ in range(100):
        watch.feed("x" * 1000 + "\n")
    assert watch.found.url == "https://example.test/first"  # what was found stays found
    assert len(watch._tail) <= 16 * 1024
