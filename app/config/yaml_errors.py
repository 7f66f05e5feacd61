"""ruamel.yaml's scanner, parser and composer errors as sentences about the line they point at
("expected <block end>, but found '-' (while parsing a block mapping)" → "This line starts a list
item (`-`) where a key was expected: …"). The parser's own words stay beside the sentence as the
problem's `detail`. Each kind is recognised by ruamel's English `problem` text (and `context`),
which is not translated: only our sentences are."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ruamel.yaml.error import MarkedYAMLError

from app.i18n import _


@dataclass(frozen=True)
class Explained:
    message: str
    detail: str
    use_context_mark: bool = False  # point where the construct began, not where it failed


def parser_words(err: MarkedYAMLError) -> str:
    """What ruamel said, in one line: "problem (context)"."""
    what = err.problem or err.context or "syntax error"
    context = f" ({err.context})" if err.context and err.problem else ""
    return f"{what}{context}"


def code(text: str) -> str:
    """`text` as a code span that its own backticks cannot close."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def explain(err: MarkedYAMLError, text: str) -> Explained:
    problem, context = err.problem or "", err.context or ""
    detail = parser_words(err)
    for pattern, sentence, at_start in _KINDS:
        found = re.search(pattern, f"{problem}\n{context}")
        if found:
            return Explained(sentence(found, err, text), detail, at_start)
    return Explained(_("This line cannot be read as YAML."), detail)


def unreadable() -> str:
    """What is said when ruamel fails without saying where (its plain exceptions)."""
    return _("The file could not be read as YAML.")


def _block_end(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    token = found["token"]
    in_list = "block collection" in (err.context or "")
    if token == "-":
        return _(
            "This line starts a list item ({dash}) where a key was expected: check its "
            "indentation against the lines above."
        ).format(dash=code("-"))
    if token == "?" and in_list:
        return _(
            "This line starts a key where the list above expects another item ({dash}): "
            "indent it under its item, or start it with {dash}."
        ).format(dash=code("- "))
    if token in ("]", "}"):
        return _("This {bracket} closes a bracket that was never opened: remove it.").format(
            bracket=code(token)
        )
    if token == "<scalar>" and _after_closing_quote(err, text):
        return _(
            "Text follows the closing quote of this value: put the whole value inside the quotes."
        )
    return _(
        "This line is not lined up with the lines above it: indent it like the other keys of "
        "the block it belongs to."
    )


def _after_closing_quote(err: MarkedYAMLError, text: str) -> bool:
    mark = err.problem_mark
    if mark is None:
        return False
    lines = text.split("\n")
    row = lines[mark.line] if mark.line < len(lines) else ""
    return row[: mark.column].rstrip().endswith(("'", '"'))


def _flow_end(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    closing = found["closing"]
    opening = "[" if closing == "]" else "{"
    if found["got"] == "<stream end>":
        return _("This {opening} is never closed: add {closing} after its last item.").format(
            opening=code(opening), closing=code(closing)
        )
    return _(
        "Inside {opening} … {closing}, items are separated by commas: a {comma} or the "
        "closing {closing} is missing before this point (a value holding {colon} goes in quotes)."
    ).format(opening=code(opening), closing=code(closing), comma=code(","), colon=code(": "))


def _node_content(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    if found["token"] == "-":
        return _(
            "A list item ({dash}) cannot start inside brackets: separate the items with "
            "commas, or remove the brackets."
        ).format(dash=code("-"))
    return _("A value is missing here, before {token}.").format(token=code(found["token"]))


def _cannot_start(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    char = found["char"]
    if char == "\\t":
        return _(
            "This line holds a tab: YAML takes only spaces for indentation; replace the tab "
            "with spaces."
        )
    return _("A value cannot start with {char} in YAML: put the value in quotes.").format(
        char=code(char)
    )


def _unclosed_quote(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    mark = err.context_mark
    quote = '"'
    if mark is not None and mark.line < len(rows := text.split("\n")):
        quote = rows[mark.line][mark.column : mark.column + 1] or quote
    return _("This quote is never closed: add the closing {quote} at the end of the value.").format(
        quote=code(quote)
    )


def _duplicate_key(found: re.Match[str], err: MarkedYAMLError, text: str) -> str:
    key = found["key"]
    first = _first_line_of(key, err, text)
    if first:
        return _(
            "{key} is given twice in the same block (first on line {line}): keep only one of them."
        ).format(key=code(key), line=first)
    return _("{key} is given twice in the same block: keep only one of them.").format(key=code(key))


def _first_line_of(key: str, err: MarkedYAMLError, text: str) -> int:
    """The 1-based line where the block first gave `key`, at the duplicate's column (0: not
    found, e.g. a quoted or flow key)."""
    start, again = err.context_mark, err.problem_mark
    if start is None or again is None:
        return 0
    rows = text.split("\n")
    for row in range(start.line, min(again.line, len(rows))):
        line = rows[row]
        lead = line[: again.column]
        if line[again.column :].startswith(f"{key}:") and lead.strip(" -") == "":
            return row + 1
    return 0


def _fixed(sentence: Callable[[], str]) -> Callable[[re.Match[str], MarkedYAMLError, str], str]:
    return lambda found, err, text: sentence()


_KINDS: list[tuple[str, Callable[[re.Match[str], MarkedYAMLError, str], str], bool]] = [
    (r"^expected <block end>, but found '(?P<token>[^\n]*)'", _block_end, False),
    (
        r"^expected '(?P<comma>,)' or '(?P<closing>[\]}])', but got '(?P<got>[^\n]*)'",
        _flow_end,
        False,
    ),
    (r"^expected the node content, but found '(?P<token>[^\n]*)'", _node_content, False),
    (r"^found character '(?P<char>[^\n]*)' that cannot start any token", _cannot_start, False),
    (
        r"^found (?:unexpected end of stream|unexpected document separator)\n"
        r"while scanning a quoted scalar",
        _unclosed_quote,
        False,
    ),
    (
        r"^mapping values are not allowed here",
        _fixed(
            lambda: _(
                "This {colon} cannot start a value here: put the value in quotes if it holds "
                "{separator}, or give the key a line of its own, lined up with the keys above."
            ).format(colon=code(":"), separator=code(": "))
        ),
        False,
    ),
    (
        r"^could not find expected ':'",
        _fixed(
            lambda: _(
                "This line has no {colon} after its key: add one, or, if it continues the value "
                "above, put that value in quotes."
            ).format(colon=code(":"))
        ),
        True,
    ),
    (
        r"^found duplicate key \"(?P<key>[^\"]*)\"",
        _duplicate_key,
        False,
    ),
    (
        r"^found undefined alias '(?P<name>[^']*)'",
        lambda found, err, text: _(
            "{alias} refers to an anchor {anchor} that is not defined above it: define it first, "
            "or put the value in quotes."
        ).format(alias=code(f"*{found['name']}"), anchor=code(f"&{found['name']}")),
        False,
    ),
    (
        r"^but found another document",
        _fixed(
            lambda: _(
                "A second document starts here ({separator}): a configuration is a single "
                "document; remove this line or what follows it."
            ).format(separator=code("---"))
        ),
        False,
    ),
    (
        r"^found unknown escape character '(?P<char>[^']*)'|^expected escape sequence",
        lambda found, err, text: _(
            "The backslash before this character starts an escape YAML does not know inside "
            "double quotes: write "
            "{backslash} for a backslash, or use single quotes."
        ).format(backslash=code("\\\\")),
        False,
    ),
    (
        r"\nwhile scanning an? (?:anchor|alias)",
        _fixed(
            lambda: _(
                "{anchor} and {alias} need a name right after them: write {example}, or put "
                "the value in quotes."
            ).format(anchor=code("&"), alias=code("*"), example=code("&name"))
        ),
        False,
    ),
    (
        r"\nwhile scanning a block scalar",
        _fixed(
            lambda: _(
                "{pipe} or {fold} starts a block of text on the next lines and may be followed "
                "only by {keep}, {strip} or a digit: put this value in quotes."
            ).format(pipe=code("|"), fold=code(">"), keep=code("+"), strip=code("-"))
        ),
        False,
    ),
    (
        r"^mapping keys are not allowed here|^sequence entries are not allowed here",
        _fixed(
            lambda: _(
                "A value cannot start with {question} or {dash} after a key on the same line: "
                "put the value in quotes, or the list on the next lines, indented."
            ).format(question=code("?"), dash=code("- "))
        ),
        False,
    ),
    (
        r"\nwhile (?:parsing|scanning) a tag",
        _fixed(
            lambda: _("This tag ({tag}) is not complete: put the value in quotes.").format(
                tag=code("!")
            )
        ),
        False,
    ),
    (
        r"\nwhile scanning a directive",
        _fixed(
            lambda: _("This directive ({percent}) is not one YAML knows: remove the line.").format(
                percent=code("%")
            )
        ),
        False,
    ),
]
