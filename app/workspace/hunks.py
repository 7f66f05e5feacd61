"""One hunk of a change put back (ChangesService.RevertHunk): the hunks are those of the record's
diff (changes.unified_diff: difflib's, 3 lines of context), counted from 0 in their order, so
the page's "@@" blocks and these are the same. Lines are compared as bytes decoded with
surrogateescape, so a file's bytes come back exactly (no newline or encoding is changed)."""

from __future__ import annotations

from app.core.errors import UserError
from app.i18n import _

CONTEXT = 3  # difflib.unified_diff's default, which the record's diff uses


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)


def hunk_reverted(before: bytes, after: bytes, hunk: int) -> bytes:
    """`after` with its `hunk`-th hunk as it was in `before`."""
    import difflib  # with the first hunk reverted, not with the window (issue 29, memory)

    old, new = _lines(before), _lines(after)
    # autojunk as unified_diff has it (True), so that the hunks are the diff's.
    groups = list(difflib.SequenceMatcher(None, old, new).get_grouped_opcodes(CONTEXT))
    if not 0 <= hunk < len(groups):
        raise UserError(
            _("this change has no part {number}: it has {count}").format(
                number=hunk + 1, count=len(groups)
            )
        )
    edits = [op for op in groups[hunk] if op[0] != "equal"]
    result: list[str] = []
    position = 0
    for _tag, old_start, old_end, new_start, new_end in edits:
        result += new[position:new_start]
        result += old[old_start:old_end]
        position = new_end
    result += new[position:]
    return "".join(result).encode("utf-8", "surrogateescape")
