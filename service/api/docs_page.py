"""Interactive API docs that work offline: Swagger UI at ``/docs``, the spec at ``/openapi.json``
and, the same document as YAML (what ``meow openapi`` prints and openapi.yaml holds), at ``/openapi.yaml``.

flask-smorest renders the page (its template; the spec URL from ``url_for``). The Swagger UI files
come from the ``swagger-ui-bundle`` package and are served here under ``/docs/assets/``, so the page
loads nothing from a CDN or any other host. Neither route is an operation of the spec: flask-smorest's
doc blueprint and this one are plain Flask blueprints, not registered through the ``Api``.

The page boots Swagger UI with one inline ``<script>``: its responses carry their own
Content-Security-Policy allowing that script by its hash (and nothing but same-origin scripts),
so the docs page never needs ``'unsafe-inline'`` for scripts.
"""
from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from flask import Blueprint, Flask, Response, request, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import NotFound

PAGE = "/docs"
YAML_PATH = "/openapi.yaml"
YAML = "application/yaml"  # RFC 9512
ASSETS = "/docs/assets/"

CONFIG: dict[str, Any] = {
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": PAGE,
    "OPENAPI_SWAGGER_UI_URL": ASSETS,  # the page loads swagger-ui.css and the two scripts from here
    # no badge image from validator.swagger.io (Swagger UI's default would send it our spec's URL)
    "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
}

JS, CSS, PNG, MAP = "text/javascript", "text/css", "image/png", "application/json"
FILES = {  # only what the page needs (and the source maps a browser's devtools ask for)
    "swagger-ui.css": CSS,
    "swagger-ui-bundle.js": JS,
    "swagger-ui-standalone-preset.js": JS,
    "favicon-16x16.png": PNG,
    "favicon-32x32.png": PNG,
    "swagger-ui.css.map": MAP,
    "swagger-ui-bundle.js.map": MAP,
    "swagger-ui-standalone-preset.js.map": MAP,
}
MAX_AGE_S = 3600

blp = Blueprint("docs-assets", __name__, url_prefix=ASSETS.rstrip("/"))


@blp.get("/<path:filename>")
def asset(filename: str) -> Response:
    mimetype = FILES.get(filename)
    if mimetype is None:
        raise NotFound("no such docs asset")
    resp = send_from_directory(str(swagger_ui_path), filename, mimetype=mimetype, max_age=MAX_AGE_S)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def page_csp(html: str) -> str:
    """The docs page's policy: same-origin files only, plus its inline boot script by hash."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                      for s in INLINE_SCRIPT.findall(html))
    return ("default-src 'none'; "
            f"script-src 'self' {hashes}; "
            "style-src 'self' 'unsafe-inline'; "  # Swagger UI sets inline styles
            "img-src 'self' data:; font-src 'self' data:; "  # swagger-ui.css draws its icons as data: SVGs
            "connect-src 'self'; "  # the spec and "Try it out" (the spec names no servers: same origin)
            "base-uri 'none'; form-action 'self'; frame-ancestors 'self'")


def spec_yaml(spec: Any) -> str:
    """The spec as YAML, every schema written out in full (no anchors and aliases)."""
    import yaml

    class NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data: object) -> bool:
            return True

    return str(spec.to_yaml(yaml_dump_kwargs={"Dumper": NoAliases}))


def install(app: Flask) -> None:
    """Call before ``Api(app)``: flask-smorest reads the OPENAPI_* settings when it is initialised."""
    app.config.update(CONFIG)
    app.register_blueprint(blp)

    @app.get(YAML_PATH)
    def openapi_yaml() -> Response:
        text = app.extensions.get("meow.openapi_yaml")
        if text is None:  # written once: the spec is fixed once the app is built
            text = app.extensions["meow.openapi_yaml"] = spec_yaml(app.extensions["meow.api"].spec)
        resp = Response(text, mimetype=YAML)
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp

    @app.after_request
    def _docs_headers(resp: Response) -> Response:
        if (request.endpoint or "").endswith(".openapi_swagger_ui") and resp.mimetype == "text/html":
            resp.headers["Content-Security-Policy"] = page_csp(resp.get_data(as_text=True))
            resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp
