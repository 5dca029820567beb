"""The tokens port: a game's token records (hash -> role, written by the append) and its
store-side metadata kept beside them (never part of the stream, never in any answer)."""
from __future__ import annotations

from typing import Protocol

META = "meta:"
"""The head of a store-side metadata field in a game's token hash ("meta:<name>"): the store writes
it (``meta_put``); the application names its fields in one module (service/app/table_meta.py)."""


class Tokens(Protocol):
    def token_get(self, game_id: str, token_hash: str) -> bytes | None:
        """The record under a token hash (or an alias such as "owner", or "meta:<name>")."""
        ...

    def meta_put(self, game_id: str, name: str, value: bytes | None) -> None:
        """Set (or, with None, delete) one field of the game's store-side metadata, kept in its
        token hash beside the token aliases ("meta:<name>", read with ``token_get``) and deleted
        with it (service/app/fairness.py)."""
        ...
