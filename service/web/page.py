"""The web table at ``/``: one HTML page and its ES modules, stylesheet and translations, served from
the package (``service/web/static``; no build step, nothing from another host).

Both routes belong to a plain Flask blueprint, not registered through the ``Api``, so neither is an
operation of the spec. The page and its files carry a strict Content-Security-Policy: same-origin
scripts, styles and requests only, no inline script or style, no frames, no plugins.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, send_from_directory
from werkzeug.exceptions import NotFound

STATIC = Path(__file__).with_name("static")
ASSETS = "/web"
TYPES = {".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml",
         ".png": "image/png", ".txt": "text/plain"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

blp = Blueprint("web", __name__)


def _secure(resp: Response) -> Response:
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["Cache-Control"] = "no-cache"  # revalidated (ETag, Last-Modified): a new version shows at once
    return resp


@blp.get("/")
def index() -> Response:
    return _secure(send_from_directory(STATIC, "index.html", mimetype="text/html", max_age=0))


@blp.get(f"{ASSETS}/<path:filename>")
def asset(filename: str) -> Response:
    mimetype = TYPES.get(Path(filename).suffix)
    if mimetype is None or filename.startswith("index."):
        raise NotFound("no such file of the web table")
    return _secure(send_from_directory(STATIC, filename, mimetype=mimetype, max_age=0))  # NotFound outside STATIC


def install(app: Flask) -> None:
    app.register_blueprint(blp)


def page_url(port: int, host: str = "127.0.0.1") -> str:
    """Where `meow run` says the page is."""
    return f"http://{host}:{port}/"

