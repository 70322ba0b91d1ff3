"""JSON text as `deno fmt` writes it (2-space indent, line width 110), so fixtures pass `deno fmt --check`.

Objects take one member per line; an array of numbers and strings stays on one line when that line fits in 110
columns, else takes one element per line; an array holding objects or arrays takes one element per line.
"""
import json

WIDTH = 110


def _scalar(value):
    return json.dumps(value, ensure_ascii=False)


def _render(value, indent, prefix_width):
    pad = " " * indent
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        if not value:
            return "{}"
        members = [f"{inner}{_scalar(k)}: {_render(v, indent + 2, indent + 2 + len(_scalar(k)) + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(not isinstance(v, (dict, list)) for v in value):
            line = "[" + ", ".join(_scalar(v) for v in value) + "]"
            if prefix_width + len(line) + 1 <= WIDTH:
                return line
        items = [inner + _render(v, indent + 2, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _scalar(value)


def dumps(value):
    """The document as deno fmt formats it, with a final newline."""
    return _render(value, 0, 0) + "\n"
