"""Players and their ratings (docs/integrators.md): keys' players, their records and ratings.

``registration.py`` plugs it into the table core (service/app/plugins.py); ``jobs.py``, where it has
jobs, owns their kinds and job ids."""
