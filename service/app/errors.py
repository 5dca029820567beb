"""Application errors with stable codes; the API maps them to problem+json in one place."""
from __future__ import annotations

from typing import Any


class AppError(Exception):
    def __init__(self, code: str, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.status = status
        self.detail = detail
        self.extra = extra


def not_found(what: str = "game") -> AppError:
    return AppError("not_found", 404, f"no such {what}")


def unauthorized(detail: str = "missing, wrong or revoked token") -> AppError:
    return AppError("unauthorized", 401, detail)


def forbidden(detail: str) -> AppError:
    return AppError("forbidden", 403, detail)
