"""What a JSON request body may hold before any schema sees it: at most MAX_JSON_DEPTH levels of
nesting, and numbers in I-JSON's exact-integer range (RFC 7493 §2.2). A number beyond it could not
be stored (the encoder takes 64-bit integers at most) nor read back exactly by a JavaScript client,
so it is refused wherever it stands — an option, an option the table ignores, an action's field —
as 400 ``invalid_json`` naming where, never a 500."""
from __future__ import annotations

from typing import Any

from service.api.codes import ApiCode
from service.app.errors import AppError

MAX_JSON_DEPTH = 32  # our bodies nest three levels; anything far deeper is refused before parsing
MAX_JSON_NUMBER = 2**53 - 1  # I-JSON: integers in [-(2**53)+1, 2**53-1] are exact everywhere


def check_body(body: Any) -> None:
    """Raise ``invalid_json`` for a body nested too deep or holding a number out of range."""
    stack: list[tuple[Any, int, str]] = [(body, 1, "")]
    while stack:
        node, depth, where = stack.pop()
        if isinstance(node, (int, float)) and not isinstance(node, bool):
            if not -MAX_JSON_NUMBER <= node <= MAX_JSON_NUMBER:
                field = where or "(the body)"
                raise AppError(ApiCode.INVALID_JSON, f"the number at {field} is outside the range a JSON number "
                               f"may take here (-(2^53 - 1) to 2^53 - 1, I-JSON)",
                               errors=[{"field": field, "in": "json", "messages": ["a number within ±(2^53 - 1)"]}])
            continue
        if isinstance(node, (dict, list)) and depth > MAX_JSON_DEPTH:
            raise AppError(ApiCode.INVALID_JSON, f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(node, dict):
            stack.extend((v, depth + 1, f"{where}.{k}" if where else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, depth + 1, f"{where}[{i}]") for i, v in enumerate(node))
