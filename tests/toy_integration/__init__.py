"""A toy integration, "tally" (docs/adding-an-integration.md): every new table writes, in the same
atomic append as its first events, one job of its own kind; the job, served on the fast lane, counts
the table. tests/test_adding_an_integration.py copies it into service/integrations/tally/ of a copy of
the repository, with its one registration line, and removes it again."""
