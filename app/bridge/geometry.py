"""The window's size and position, remembered between runs."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass

from app.core.atomic import write_atomic
from app.paths import app_config_dir

log = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 820)
MIN_SIZE = (880, 560)


@dataclass
class Geometry:
    width: int = DEFAULT_SIZE[0]
    height: int = DEFAULT_SIZE[1]
    x: int | None = None
    y: int | None = None


def load_geometry() -> Geometry:
    path = app_config_dir() / "window.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        geometry = Geometry(
            width=max(MIN_SIZE[0], int(data["width"])),
            height=max(MIN_SIZE[1], int(data["height"])),
            x=int(data["x"]) if data.get("x") is not None else None,
            y=int(data["y"]) if data.get("y") is not None else None,
        )
    except FileNotFoundError:
        return Geometry()
    except (OSError, ValueError, KeyError, TypeError) as err:
        log.warning("ignoring %s: %s", path, err)
        return Geometry()
    return geometry


def save_geometry(geometry: Geometry) -> None:
    path = app_config_dir() / "window.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(asdict(geometry)) + "\n")
    except OSError as err:
        log.warning("cannot save the window's geometry: %s", err)
