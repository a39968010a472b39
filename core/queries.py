"""Short reads whose SQL is compiled once per process, for the queries every page visit runs.

Django compiles a queryset to SQL each time it is evaluated. For a dashboard's short reads
(a count over a few hundred rows, ten records along an index) compiling took 0.3-0.6 ms
of each query's 1 ms, more than PostgreSQL took to plan and run it, and a first visit
runs eight of them (docs/performance.md, "Dashboards"). :func:`values_rows` keeps a
``values_list`` queryset's SQL and its converters under a key that names its shape, and
runs them again with the values of the call: the same rows the queryset gives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

Compiled = tuple[str, tuple[Any, ...], dict[int, tuple[list[Any], Any]]]

# (vendor, the caller's key) -> (the SQL, the parameters it was compiled with, the
# converters of its columns). Keys name shapes (a game, a filter), so they are few; past
# the limit a shape is compiled at every call, as Django does.
_COMPILED: dict[tuple[str, Hashable], Compiled] = {}
COMPILED_LIMIT = 512


def values_rows(
    key: Hashable, build: Callable[[], QuerySet], params: Sequence[Any] | None = None
) -> list[tuple[Any, ...]]:
    """``list(build())`` for a ``values_list`` queryset on the default database, its SQL
    compiled once per ``key``.

    ``key`` must name everything the SQL's text depends on: which filters ``build``
    applies, and the values it passes, unless ``params`` gives them. ``params``: the
    query's parameters in the order the compiled SQL takes them (``record_id__in=ids``
    takes ``ids``), so that one shape serves every value; the first compilation checks
    that the queryset's own parameters are exactly these, and a shape whose are not is
    never kept.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    memo = (connection.vendor, key)
    found = _COMPILED.get(memo)
    if found is None:
        compiler = build().query.get_compiler(using=DEFAULT_DB_ALIAS)
        sql, compiled = compiler.as_sql()
        converters = compiler.get_converters([column for column, _, _ in compiler.select])
        found = (sql, tuple(compiled), converters)
        if params is not None and tuple(params) != found[1]:
            params = None  # not the shape the caller said: run as compiled, keep nothing
        elif len(_COMPILED) < COMPILED_LIMIT:
            _COMPILED[memo] = found
    sql, compiled, converters = found
    with connection.cursor() as cursor:
        cursor.execute(sql, compiled if params is None else tuple(params))
        rows: Iterable[Sequence[Any]] = cursor.fetchall()
    if not converters:
        return [tuple(row) for row in rows]
    # As the compiler's apply_converters, with this thread's connection.
    converted = []
    for row in rows:
        values = list(row)
        for position, (functions, expression) in converters.items():
            value = values[position]
            for function in functions:
                value = function(value, expression, connection)
            values[position] = value
        converted.append(tuple(values))
    return converted
