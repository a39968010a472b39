"""Set-based writes of many derived rows: one statement for a whole batch.

An ingest writes a few rows per record (its per-seat results, its facts): through
the ORM, one by one, that was most of its time. Here the rows are plain tuples,
written on PostgreSQL with ``COPY`` into a temporary staging table and one
``INSERT ... SELECT ... ON CONFLICT``, elsewhere (SQLite in development) with
multi-row ``INSERT ... ON CONFLICT`` statements. JSON columns take JSON text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction

INSERT_ROWS = 400  # rows per INSERT statement off PostgreSQL (well below SQLite's limit)


def rows_upsert(
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    conflict: Sequence[str],
    update: Sequence[str] = (),
    returning: str | None = None,
    new: bool = False,
) -> list[Any]:
    """Insert ``rows``; on a conflict on ``conflict``, update ``update`` (none: skip the row).

    Returns the ``returning`` column of each row written (inserted, or updated),
    in no particular order. Call inside a transaction: the staging table is emptied
    before this returns.

    ``new``: the caller expects none of the rows to exist (it read their keys under
    lock, or the batch's records had none): on PostgreSQL they are copied straight into
    the table, in a savepoint, and only if one exists after all (a concurrent ingest's)
    does the batch take the staging table's path. Straight, a rebuild's batch skips the
    staging table's second copy of every row and its ``TRUNCATE``.
    """
    if not rows:
        return []
    if new and connection.vendor == "postgresql":
        written = rows_copy(table, columns, rows, conflict=conflict, returning=returning)
        if written is not None:
            return written
    names = ", ".join(columns)
    action = (
        "DO UPDATE SET " + ", ".join(f"{c} = EXCLUDED.{c}" for c in update)
        if update
        else "DO NOTHING"
    )
    tail = f"ON CONFLICT ({', '.join(conflict)}) {action}"
    if returning:
        tail += f" RETURNING {returning}"
    written: list[Any] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            staging = f"{table}_staging"
            cursor.execute(
                f"CREATE TEMPORARY TABLE IF NOT EXISTS {staging} AS "
                f"SELECT {names} FROM {table} WITH NO DATA"
            )
            with (
                connection.wrap_database_errors,
                cursor.cursor.copy(f"COPY {staging} ({names}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row(row)
            # Sorted by the conflict key: two batches lock their common rows in one order.
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT {names} FROM {staging} "
                f"ORDER BY {', '.join(conflict)} {tail}"
            )
            if returning:
                written = [r[0] for r in cursor.fetchall()]
            cursor.execute(f"TRUNCATE {staging}")
            return written
        row_sql = "(" + ", ".join(["%s"] * len(columns)) + ")"
        for start in range(0, len(rows), INSERT_ROWS):
            chunk = rows[start : start + INSERT_ROWS]
            cursor.execute(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([row_sql] * len(chunk))} {tail}",
                [value for row in chunk for value in row],
            )
            if returning:
                written += [r[0] for r in cursor.fetchall()]
    return written


def rows_copy(
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    conflict: Sequence[str],
    returning: str | None,
) -> list[Any] | None:
    """``COPY`` the rows into ``table`` in a savepoint; None if one of them existed.

    Sorted by the conflict key, as the staging path inserts them: two batches wait for
    each other's common rows in one order, never in a cycle.
    """
    at = [list(columns).index(c) for c in conflict]
    ordered = sorted(rows, key=lambda row: [row[i] for i in at])
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    try:
        with (
            transaction.atomic(),
            connection.cursor() as cursor,
            connection.wrap_database_errors,
            cursor.cursor.copy(sql) as copy,
        ):
            for row in ordered:
                copy.write_row(row)
    except IntegrityError:
        return None
    if returning is None:
        return []
    index = list(columns).index(returning)
    return [row[index] for row in ordered]
