"""Webhooks (docs/integrators.md): a key's subscriptions and their deliveries on the hooks lane.

``registration.py`` plugs it into the table core (service/app/plugins.py); ``jobs.py``, where it has
jobs, owns their kinds and job ids."""
