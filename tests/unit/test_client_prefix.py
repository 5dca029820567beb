"""client_prefix: the network per-address budgets and caps count (IPv4 /24, IPv6 /64 by default)."""
from service.api.client import client_prefix


def test_neighbours_in_a_prefix_are_one_client():
    assert client_prefix("127.0.3.9") == client_prefix("127.0.3.200") == "127.0.3.0/24"
    assert client_prefix("127.0.4.9") != client_prefix("127.0.3.9")
    assert client_prefix("2001:db8::1") == client_prefix("2001:db8::ffff:1") == "2001:db8::/64"
    assert client_prefix("2001:db8:0:1::1") != client_prefix("2001:db8::1")


def test_mapped_ipv4_lengths_and_garbage():
    assert client_prefix("::ffff:1.2.3.4") == "1.2.3.0/24"
    assert client_prefix("10.1.2.3", v4=32) == "10.1.2.3/32"
    assert client_prefix("2001:db8::1", v6=128) == "2001:db8::1/128"
    assert client_prefix("unknown") == "unknown"
