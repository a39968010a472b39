"""Records stored by a bulk upload on SQLite before its datetimes were adapted.

A raw cursor stored an aware datetime as ``2025-12-02 19:30:00+00:00`` (or with
the upload's own offset) where the ORM stores ``2025-12-02 19:30:00`` in UTC.
SQLite compares the text, so such a row sorted after its own instant and the
ratings' keyset paging never advanced past it. Rewritten here in the ORM's
format; PostgreSQL stores ``timestamptz`` and had nothing to fix.
"""

from datetime import UTC, datetime

from django.db import migrations

COLUMNS = ("played_at", "created_at")


def datetimes_normalise(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    table = apps.get_model("replays", "Record")._meta.db_table
    with connection.cursor() as cursor:
        for column in COLUMNS:
            cursor.execute(
                f"SELECT id, CAST({column} AS TEXT) FROM {table} "
                f"WHERE {column} LIKE '%+__:__' OR {column} LIKE '%-__:__' OR {column} LIKE '%T%'"
            )
            for pk, text in cursor.fetchall():
                value = datetime.fromisoformat(text)
                if value.tzinfo is not None:
                    value = value.astimezone(UTC).replace(tzinfo=None)
                cursor.execute(
                    f"UPDATE {table} SET {column} = %s WHERE id = %s",
                    [connection.ops.adapt_datetimefield_value(value), pk],
                )


class Migration(migrations.Migration):
    dependencies = [("replays", "0008_import_jobs")]

    operations = [migrations.RunPython(datetimes_normalise, migrations.RunPython.noop)]
