"""JSON read and written by the launcher's no-op check without importing :mod:`json`.

``import json`` imports :mod:`re` and compiles its patterns: about 15 ms, an eighth of a
render with nothing to do. The check reads three small records and writes one line (the render
lock's holder); the interpreter's own JSON accelerator (``_json``, the C code :mod:`json` uses
itself) does both without ``re``. Where that accelerator is missing (another Python), this is
:mod:`json`. Only records gpuplat wrote go through here; what they hold is plain JSON.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (which imports re)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WHITESPACE = " \t\n\r"


class _Context:
    """What ``_json.make_scanner`` reads of a decoder: :class:`json.JSONDecoder`'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    try:
        import _json
    except ImportError:
        return None
    make: Callable[[object], Callable[[str, int], tuple[Any, int]]] | None
    make = getattr(_json, "make_scanner", None)
    return None if make is None else make(_Context())


_SCAN = _scanner()


def loads(text: str) -> Any:
    """The value of a JSON document, as :func:`json.loads` gives it; ValueError when it is not."""
    if _SCAN is None:
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _SCAN(text, start)
    except StopIteration:
        raise ValueError("not a JSON document") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError("extra data after the JSON document")
    return value


def dumps_line(value: dict[str, Any]) -> str:
    """A flat object of ints, strings and lists of strings, as ``json.dumps(value)`` writes it."""
    try:
        from _json import encode_basestring_ascii as quote
    except ImportError:
        import json

        return json.dumps(value)
    items = []
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, int | str | list):
            import json

            return json.dumps(value)
        if isinstance(item, int):
            text = str(item)
        elif isinstance(item, str):
            text = quote(item)
        else:
            if not all(isinstance(x, str) for x in item):
                import json

                return json.dumps(value)
            text = "[" + ", ".join(quote(x) for x in item) + "]"
        items.append(f"{quote(key)}: {text}")
    return "{" + ", ".join(items) + "}"
