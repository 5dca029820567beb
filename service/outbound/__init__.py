"""Outbound HTTP: the request signer and the one client allowed to reach out (contract S)."""
