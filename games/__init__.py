"""Rules engines for the five gift games: pure Python, no Django, no I/O.

Use :func:`games.registry.get_engine` to look an engine up by slug, and
:mod:`games.play` to replay a log or let bots play a game.
"""
