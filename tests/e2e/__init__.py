"""End-to-end tests and harness for the real OpenCode binary (see conftest.py)."""
