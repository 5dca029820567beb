"""The web table: a static page at ``/`` that plays on the public API only (docs/web.md)."""
