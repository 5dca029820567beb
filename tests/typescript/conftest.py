"""The TypeScript client check runs against the live stack of the end-to-end tests (tests/e2e/conftest.py)."""
from tests.e2e.conftest import stack

__all__ = ["stack"]
