"""Application errors with stable domain codes; the API maps each code to its HTTP status in one
place (service/api/codes.py), so nothing below the edge chooses a transport status."""
from __future__ import annotations

from typing import Any

from service.app.codes import AppCode
from service.games.kernel.codes import DomainCode, KernelCode


class AppError(Exception):
    """A refused request. ``precondition`` names where a stale version came from (``if_match`` or
    ``body``: the edge answers a failed If-Match with 412, RFC 9110 §13.1.1); ``headers`` are hints
    such as Retry-After; ``extra`` joins the problem body. ``code`` is a declared ``DomainCode``
    member (a plain string is a TypeError: service/games/kernel/codes.py)."""

    def __init__(self, code: DomainCode, detail: str, headers: dict[str, str] | None = None,
                 precondition: str | None = None, **extra: Any) -> None:
        if not isinstance(code, DomainCode):
            raise TypeError(f"{code!r} is not a declared DomainCode member (service/games/kernel/codes.py)")
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.headers = headers or {}  # e.g. Retry-After when rate limited
        self.precondition = precondition
        self.extra = extra


def not_found(what: str = "game") -> AppError:
    return AppError(KernelCode.NOT_FOUND, f"no such {what}")


def unauthorized(detail: str = "missing, wrong or revoked token") -> AppError:
    return AppError(AppCode.UNAUTHORIZED, detail)


def forbidden(detail: str) -> AppError:
    return AppError(AppCode.FORBIDDEN, detail)


def rate_limited(detail: str, retry_after_s: int) -> AppError:
    return AppError(AppCode.RATE_LIMITED, detail, headers={"Retry-After": str(retry_after_s)})
