"""Private tables (docs/integrators.md): tables reached by invite only, in no public lobby.

``registration.py`` plugs it into the table core (service/app/plugins.py); ``jobs.py``, where it has
jobs, owns their kinds and job ids."""
