"""Quick play (docs/integrators.md): a seat at the next table that needs one, bots filling the rest.

``registration.py`` plugs it into the table core (service/app/plugins.py); ``jobs.py``, where it has
jobs, owns their kinds and job ids."""
