"""What a prompt carries besides its text (issue 15): the person's attached files and images, as
typed blocks the core builds, and their translation into ACP content blocks as the agent's
`promptCapabilities` allow.

Files are read when the prompt is sent, not when they were attached:
- images go as `image` blocks (base64) when the agent takes images;
- text files (UTF-8, no NUL byte) go embedded as `resource` blocks when it takes embedded
  context, otherwise as `resource_link`s; other files, and files past the embedding limit, as
  `resource_link`s (the agent reads them itself);
- an agent that declared no `promptCapabilities` at all gets a line per file in the text
  ("[attached: /abs/path (image/png, 12 KB)]"), which every agent understands;
- a file gone since it was attached is a line that says so, whatever the agent supports;
- Sidekicks' own text (`PromptResource`, a hand-off's changes and plan) goes as an embedded
  `resource` when the agent takes embedded context, as text after the prompt otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

EMBED_LIMIT = 20 * 1024 * 1024  # larger files are sent as links only
IMAGE_LIMIT = 10 * 1024 * 1024  # larger images too
SNIFF_BYTES = 8192  # a NUL byte in the first ones: not a text file


@dataclass(frozen=True, slots=True)
class PromptText:
    text: str


@dataclass(frozen=True, slots=True)
class PromptFile:
    """A file the person attached: `image` for images (a pasted one is a file of the data
    folder). `size` and `mime` as they were when attached (the line says them)."""

    path: str
    name: str
    mime: str = ""
    size: int = 0
    image: bool = False


@dataclass(frozen=True, slots=True)
class PromptResource:
    """Text Sidekicks hands the agent beside the prompt (issue 28: a hand-off's changes and
    plan): an embedded `resource` block at `uri` when the agent takes embedded context,
    otherwise `title` and the text after the prompt's text."""

    uri: str
    text: str
    title: str
    mime: str = "text/plain"


PromptBlock = PromptText | PromptFile | PromptResource


@dataclass(frozen=True, slots=True)
class PromptSupport:
    """What the agent said it takes in prompts (`declared`: it said anything at all)."""

    declared: bool = False
    image: bool = False
    embedded: bool = False
