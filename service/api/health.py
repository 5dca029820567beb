"""Liveness and readiness."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.codes import STORE_RETRY_AFTER_S, ApiCode
from service.api.errors import problem
from service.api.headers import retry_after
from service.api.http import json_response, service
from service.api.operations import operation, problem_headers

blp = Blueprint("health", __name__, description="Liveness and readiness")


@blp.route("/healthz")
class Healthz(MethodView):
    @blp.response(200, s.Health)
    @operation(blp, "getHealth")
    def get(self):
        """The process answers."""
        return json_response({"status": "ok"})


@blp.route("/readyz")
class Readyz(MethodView):
    @blp.response(200, s.Health)
    @blp.alt_response(503, schema=s.Problem, headers=problem_headers(503))
    @operation(blp, "getReadiness")
    def get(self):
        """Redis is reachable."""
        try:
            service().event_log.version("0000000000000000")
        except Exception:  # noqa: BLE001 - any failure means not ready
            return retry_after(problem(ApiCode.NOT_READY, "the event store is not reachable"), STORE_RETRY_AFTER_S)
        return json_response({"status": "ready"})


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(responses={"200": {"description": "Prometheus text exposition",
                                "content": {"text/plain": {"schema": {"type": "string"}}}}})
    @operation(blp, "getMetrics")
    def get(self):
        """Prometheus metrics: requests and latency by route, appends by outcome, follow-ups by kind."""
        from flask import Response

        from service import metrics

        body, ctype = metrics.exposition()
        return Response(body, headers={"Content-Type": ctype})
