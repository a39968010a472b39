"""Core fixtures: the accounts' clients (a throttle counts per account)."""

from tests.accounts.conftest import other_user, session_api, token_api, token_key, user

__all__ = ["other_user", "session_api", "token_api", "token_key", "user"]
