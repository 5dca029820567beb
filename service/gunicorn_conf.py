"""gunicorn settings used by `meow run` and compose: multi-process metrics hygiene."""
from service.metrics import child_exit  # noqa: F401  (a gunicorn server hook)
