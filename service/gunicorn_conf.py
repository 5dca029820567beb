"""gunicorn settings for `meow run`, compose and the tests (`--config python:service.gunicorn_conf`).

The API runs gevent workers by default: an open event stream is a greenlet and a socket, not a
thread, so one process holds thousands (docs/architecture.md, "Live feeds"). MEOW_WEB_WORKER_CLASS=
gthread restores the thread-per-request model (then MEOW_WEB_THREADS bounds open streams). Either
is service/serving.py's subclass, which answers gunicorn's own refusals (a request line or headers
over the limits, a malformed request) as problem+json. It listens on MEOW_HOST:PORT (127.0.0.1:8000
unless told otherwise; containers set MEOW_HOST=0.0.0.0). Command-line flags override these.
"""
from service.listen import bind_address as _bind_address
from service.serving import worker_class as _worker_class
from service.settings import Settings, SettingsError

try:
    _settings = Settings.from_env()
except SettingsError as _refused:  # gunicorn started on its own (compose): the message, not a traceback
    raise SystemExit(f"meow: cannot start: {_refused}") from None
bind = [_bind_address(_settings.host, _settings.port)]  # not gunicorn's default of 0.0.0.0:$PORT
worker_class = _worker_class(_settings.web_worker_class)
workers = _settings.web_workers
threads = _settings.web_threads
worker_connections = _settings.web_connections  # gevent: concurrent connections per process
backlog = 4096  # pending connections (the kernel caps it at net.core.somaxconn)
graceful_timeout = 5  # open streams end on shutdown; clients resume with Last-Event-ID
keepalive = 5
control_socket_disable = True  # no control socket in the home folder that every gunicorn on the machine would share


def post_worker_init(worker):  # a gunicorn server hook
    """A long replay runs in a native thread (service/app/compute.py); every time the event loop
    blocks on a socket it hands that thread the GIL, for up to the switch interval. 0.5 ms instead
    of Python's 5 ms keeps hundreds of stream writes from queueing behind one verify."""
    import gc
    import sys

    sys.setswitchinterval(0.0005)
    # Thousands of open streams are hundreds of thousands of long-lived objects: a full collection
    # walks them all (hundreds of ms with 10,000 streams). Freeze what start-up made and collect
    # the older generations less often; cycles are still collected.
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 50)


def child_exit(server, worker):  # a gunicorn server hook
    from service.metrics import child_exit as _child_exit

    _child_exit(server, worker)
