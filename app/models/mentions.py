"""Mentions that are not agent names (issue 29): `@here` and `@all` mention every member of a
channel (app/channels/routing.py), so the configuration refuses them as names
(app/config/model.py)."""

from __future__ import annotations

from typing import Final

EVERY_MEMBER: Final = ("here", "all")
