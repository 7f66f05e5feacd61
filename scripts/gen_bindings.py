#!/usr/bin/env python3
"""Generates ui/bindings/ from the Python services and models (like Wails' frontend/bindings).

  .venv/bin/python scripts/gen_bindings.py            # write ui/bindings/
  .venv/bin/python scripts/gen_bindings.py --check    # exit 1 if ui/bindings/ is stale

One TypeScript module per service of the js_api root (app/api.py: typed functions calling the
pywebview bridge), the models (interfaces generated from the pydantic models, by alias), the
event names with their payload types, and the small runtime they share. Every file is headed
"generated — do not edit".
"""

from __future__ import annotations

import argparse
import inspect
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.api import service_classes  # noqa: E402
from app.events import names  # noqa: E402
from app.events.payloads import EVENT_PAYLOADS  # noqa: E402
from app.models.wire import WireJson  # noqa: E402

# Every service of the js_api root (app/api.py), in its order: the SPEC's three, then one per
# extension feature.
SERVICES: list[type] = service_classes()
HEADER = "// generated — do not edit: scripts/gen_bindings.py writes this file from app/.\n"
OUT = ROOT / "ui" / "bindings"


class Models:
    """Collects the pydantic models the bindings mention and renders them as interfaces."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}
        self.order: list[str] = []

    def add(self, model: type[BaseModel]) -> str:
        schema = model.model_json_schema(
            by_alias=True, mode="serialization", ref_template="#/$defs/{model}"
        )
        for name, definition in schema.pop("$defs", {}).items():
            self._remember(name, definition)
        name = schema.get("title", model.__name__)
        self._remember(model.__name__, schema)
        return model.__name__ if name else name

    def _remember(self, name: str, schema: dict[str, Any]) -> None:
        if name not in self.defs:
            self.defs[name] = schema
            self.order.append(name)

    def render(self) -> str:
        out = [HEADER]
        for name in sorted(self.order):
            schema = self.defs[name]
            doc = schema.get("description")
            if doc:
                out.append(f"/** {' '.join(doc.split())} */")
            out.append(f"export interface {name} {{")
            for field, prop in schema.get("properties", {}).items():
                out.append(f"  {field}: {ts_schema(prop)};")
            out.append("}\n")
        return "\n".join(out)


def ts_schema(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "const" in schema:
        return _literal(schema["const"])
    if "enum" in schema:
        return " | ".join(_literal(v) for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " | ".join(dict.fromkeys(ts_schema(s) for s in schema[key]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(ts_schema({**schema, "type": k}) for k in kind)
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        item = ts_schema(schema.get("items", {}))
        return f"({item})[]" if "|" in item else f"{item}[]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        value = ts_schema(extra) if isinstance(extra, dict) else "unknown"
        return f"Record<string, {value}>"
    return "unknown"


def _literal(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower()


def ts_type(annotation: Any, models: Models) -> str:
    """A Python annotation (of a service method) as TypeScript."""
    if annotation is None or annotation is type(None):
        return "void"
    if annotation is str:
        return "string"
    if annotation in (int, float):
        return "number"
    if annotation is bool:
        return "boolean"
    if annotation is Any:
        return "unknown"
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        return models.add(annotation)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is WireJson:  # the model's JSON, already encoded (app/wire.py)
        return ts_type(args[0], models)
    if origin is list:
        item = ts_type(args[0], models)
        return f"({item})[]" if "|" in item else f"{item}[]"
    if origin is dict:
        return f"Record<string, {ts_type(args[1], models)}>"
    if origin in (Union, types.UnionType):
        return " | ".join(ts_type(a, models) for a in args)
    if origin is Literal:
        return " | ".join(_literal(a) for a in args)
    raise TypeError(f"no TypeScript type for {annotation!r}")


def service_module(service: type, models: Models) -> str:
    name = service.__name__
    used: list[str] = []
    body: list[str] = []
    for method_name, method in inspect.getmembers(service, inspect.isfunction):
        if method_name.startswith("_") or not getattr(method, "__exposed__", False):
            continue
        original = inspect.unwrap(method)
        hints = typing.get_type_hints(original)
        params = []
        for param in list(inspect.signature(original).parameters.values())[1:]:
            optional = "?" if param.default is not inspect.Parameter.empty else ""
            params.append(f"{param.name}{optional}: {ts_type(hints[param.name], models)}")
        returns = ts_type(hints.get("return"), models)
        used += [n for n in models.order if n in returns.replace("[]", " ").split()]
        args = ", ".join(p.split(":")[0].rstrip("?") for p in params)
        doc = " ".join((inspect.getdoc(original) or "").split())
        if doc:
            body.append(f"/** {doc} */")
        body.append(
            f"export function {method_name}({', '.join(params)}): Promise<{returns}> {{\n"
            f'  return call("{name}", "{method_name}"{", " if args else ""}{args});\n'
            "}\n"
        )
    imports = sorted(set(used))
    head = [HEADER, 'import { call } from "./runtime";']
    if imports:
        head.append(f'import type {{ {", ".join(imports)} }} from "./models";')
    return "\n".join(head) + "\n\n" + "\n".join(body)


def events_module(models: Models) -> str:
    constants = {k: v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}
    lines = [HEADER]
    payloads = {name: models.add(model) for name, model in EVENT_PAYLOADS.items()}
    lines.append(
        f'import type {{ {", ".join(sorted(set(payloads.values())))} }} from "./models";\n'
    )
    lines.append("/** Every event the backend sends, by its SPEC name. */")
    lines.append("export const Events = {")
    for key, value in constants.items():
        camel = "".join(part.capitalize() for part in key.lower().split("_"))
        lines.append(f'  {camel}: "{value}",')
    lines.append("} as const;\n")
    lines.append("/** The payload type of each event. */")
    lines.append("export interface EventPayloads {")
    for name, model in payloads.items():
        lines.append(f'  "{name}": {model};')
    lines.append("}\n")
    lines.append("export type EventName = keyof EventPayloads;")
    return "\n".join(lines) + "\n"


RUNTIME = (
    HEADER
    + r"""
import type { EventName, EventPayloads } from "./events";

/** The pywebview bridge: window.pywebview.api.<Service>.<Method>(…) returns a promise. */
type Bridge = Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
type Batch = [string, unknown][];
type Handler = (payload: never) => void;

interface SidekicksWindow {
  pywebview?: { api?: Bridge };
  __sidekicks?: { dispatch: (batch: Batch) => void };
}

const win = window as unknown as SidekicksWindow;
const handlers = new Map<string, Set<Handler>>();

/** Resolves once pywebview has injected the API (the `pywebviewready` event). */
export const ready: Promise<Bridge> = new Promise((resolve) => {
  const check = (): boolean => {
    const api = win.pywebview?.api;
    if (api && Object.keys(api).length > 0) {
      resolve(api);
      return true;
    }
    return false;
  };
  if (!check()) {
    window.addEventListener("pywebviewready", () => void check());
    const timer = setInterval(() => check() && clearInterval(timer), 50);
  }
});

/** Calls a service method; rejects with an Error whose message is for a person. */
export async function call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
  const api = await ready;
  const fn = api[service]?.[method];
  if (!fn) throw new Error(`${service}.${method} is not available`);
  try {
    return (await fn(...args)) as T;
  } catch (err) {
    const message = (err as { message?: string })?.message ?? String(err);
    throw new Error(message);
  }
}

/** Subscribes to an event; returns the function that unsubscribes (like Wails' runtime). */
export function On<K extends EventName>(
  name: K,
  callback: (payload: EventPayloads[K]) => void,
): () => void {
  let set = handlers.get(name);
  if (!set) {
    set = new Set();
    handlers.set(name, set);
  }
  const handler = callback as Handler;
  set.add(handler);
  return () => {
    set?.delete(handler);
  };
}

/** Called by the backend's event pump with a batch of [name, payload] pairs, in order. */
function dispatch(batch: Batch): void {
  for (const [name, payload] of batch) {
    const set = handlers.get(name);
    if (!set) continue;
    for (const handler of [...set]) {
      try {
        (handler as (p: unknown) => void)(payload);
      } catch (err) {
        console.error(`handler of ${name} failed`, err);
      }
    }
  }
}

win.__sidekicks = { dispatch };
"""
)


def index_module() -> str:
    lines = [HEADER]
    for service in SERVICES:
        lines.append(f'export * as {service.__name__} from "./{service.__name__}";')
    lines.append('export * from "./events";')
    lines.append('export type * from "./models";')
    lines.append('export { On, call, ready } from "./runtime";')
    return "\n".join(lines) + "\n"


def generate() -> dict[str, str]:
    models = Models()
    files = {f"{s.__name__}.ts": service_module(s, models) for s in SERVICES}
    files["events.ts"] = events_module(models)
    files["models.ts"] = models.render()
    files["runtime.ts"] = RUNTIME.lstrip("\n") if RUNTIME.startswith("\n") else RUNTIME
    files["index.ts"] = index_module()
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if ui/bindings is stale")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    files = generate()
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (args.out / name).exists()
            or (args.out / name).read_text(encoding="utf-8") != text
        ]
        extra = (
            sorted(p.name for p in args.out.glob("*.ts") if p.name not in files)
            if args.out.exists()
            else []
        )
        if stale or extra:
            print(f"ui/bindings is stale: {', '.join(stale + extra)}; run {Path(__file__).name}")
            return 1
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.ts"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {args.out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
