"""Developer tools, and what the tests and the benches share (neither imports the other): the live
stack's launcher, the slow-client attacker, the search lane, matches on the engine, the OpenSpiel
oracle; the Chromium the browser tests drive, the nginx in front of the API, the web table's screenshots."""
