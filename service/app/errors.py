"""Application errors with stable codes; the API maps them to problem+json in one place."""
from __future__ import annotations

from typing import Any


class AppError(Exception):
    def __init__(self, code: str, status: int, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.status = status
        self.detail = detail
        self.headers = headers or {}  # e.g. Retry-After on 429
        self.extra = extra


def not_found(what: str = "game") -> AppError:
    return AppError("not_found", 404, f"no such {what}")


def unauthorized(detail: str = "missing, wrong or revoked token") -> AppError:
    return AppError("unauthorized", 401, detail)


def forbidden(detail: str) -> AppError:
    return AppError("forbidden", 403, detail)


def rate_limited(detail: str, retry_after_s: int) -> AppError:
    return AppError("rate_limited", 429, detail, headers={"Retry-After": str(retry_after_s)})
