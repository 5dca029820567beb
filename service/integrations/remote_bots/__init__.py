"""Remote bots (docs/remote-bots.md): bot seats played by a registered server over HTTP.

``registration.py`` plugs it into the table core (service/app/plugins.py); ``jobs.py``, where it has
jobs, owns their kinds and job ids."""
