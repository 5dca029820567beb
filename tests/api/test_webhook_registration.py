"""A webhook's URL is resolved and refused at registration as a remote bot's is (issue 37 item 4):
the other spellings of a loopback address (``127.1``, ``2130706433``, ``localhost.``) are refused
there, with the same ``reason`` a bot's registration gets, and nothing is stored."""
from __future__ import annotations

from service.api.app import create_app
from service.app import api_keys
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

SPELLINGS = ("http://127.1/h", "http://2130706433/h", "http://localhost./h", "http://0x7f.1/h", "http://LOCALHOST/h")


def test_a_webhook_url_is_refused_at_registration_as_a_bots_is() -> None:
    app = create_app(Settings(outbound_allow_private=False), store=MemoryEventStore())
    _, key = api_keys.create(app.extensions["meow.service"].api_keys, "p", now_ms=0)
    client, headers = app.test_client(), {"Meow-Key": key}
    for url in SPELLINGS:
        bot = client.post("/v1/bots", json={"name": "felix", "url": url, "games": ["prsi"]}, headers=headers)
        hook = client.post("/v1/webhooks", json={"url": url, "events": ["match.ended"]}, headers=headers)
        assert (bot.status_code, bot.json["code"], bot.json["reason"]) == (422, "url_refused", "address_refused"), url
        assert (hook.status_code, hook.json["code"], hook.json["reason"]) == \
            (422, "webhook_url_refused", bot.json["reason"]), url
    assert client.get("/v1/webhooks", headers=headers).json["webhooks"] == []
    assert client.get("/v1/bots", headers=headers).json["bots"] == []
