"""Every write that changes a record endpoint's answer drops the cached bodies it changes.

Signals rather than calls in each service: records also change from the admin
(deletion, a player renamed) and through cascades, which no service sees.
Writes that bypass signals (bulk inserts, ``QuerySet.update`` in the player
merge) all write an outbox ``Announcement`` naming the records, in the same
transaction: its signal covers them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import Signal

from replays import replay_store
from replays.models import Announcement, Player, Record, Seat
from replays.response_cache import tokens_drop

#: Sent inside ``replays.services.player_merge``'s transaction, after the seats moved and
#: before the merged players are deleted, with ``keep`` (the Player kept) and
#: ``merged_ids``: apps above replays that keep rows per player (analytics' results) move
#: them to ``keep`` here, without replays knowing them.
players_merged = Signal()


def _record_changed(sender: Any, instance: Record, created: bool = False, **kwargs: Any) -> None:
    """A record saved again with what its replay is made from changed (its options, result
    or identity corrected, from a service or the admin) also loses its stored replay
    (``replays.replay_store``: the next preparation or visitor stores it again); a deleted
    one loses it by cascade."""
    tokens_drop([instance.pk])
    update_fields = kwargs.get("update_fields")
    if created or kwargs.get("signal") is not post_save:
        return
    if update_fields is None or set(update_fields) & REPLAYED_FIELDS:
        replay_store.records_stored_drop([instance.pk])


#: What a record's stored replay is made from (``replays.replay_store``): a save of other
#: fields (a record marked as bot play: ``simulated``, ``meta``) keeps it.
REPLAYED_FIELDS = frozenset({"game", "options", "events", "num_events", "digest", "result"})


def _seat_changed(sender: Any, instance: Seat, **kwargs: Any) -> None:
    tokens_drop([instance.record_id])


def _player_changed(sender: Any, instance: Player, created: bool = False, **kwargs: Any) -> None:
    """A renamed player renames every record they sat in (a new one sat in none)."""
    if created:
        tokens_drop()
        return
    tokens_drop(Seat.objects.filter(player_id=instance.pk).values_list("record_id", flat=True))


def _announced(sender: Any, instance: Announcement, created: bool = False, **kwargs: Any) -> None:
    if created:
        ids = [instance.record_id] if instance.record_id else []
        tokens_drop([*ids, *(instance.record_ids or [])])


def _account_changed(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """The list and each replay page name a record's submitter; a login (``last_login``
    only) changes nothing."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    tokens_drop(_submitted(instance))


def _account_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Before an account goes: its records' submitter is then set to none by a bulk update,
    which sends no record signal, so their pages are dropped here (and after commit)."""
    tokens_drop(_submitted(instance))


def _submitted(account: Any) -> list[int]:
    if account.pk is None:
        return []
    return list(Record.objects.filter(submitted_by=account.pk).values_list("pk", flat=True))


def connect() -> None:
    """Called once from ``ReplaysConfig.ready``."""
    for model, receiver in (
        (Record, _record_changed),
        (Seat, _seat_changed),
        (Player, _player_changed),
        (Announcement, _announced),
    ):
        post_save.connect(receiver, sender=model, dispatch_uid=f"response-cache-{model.__name__}")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"response-cache-{model.__name__}")
    user = get_user_model()
    post_save.connect(_account_changed, sender=user, dispatch_uid="response-cache-user")
    post_delete.connect(_account_changed, sender=user, dispatch_uid="response-cache-user")
    pre_delete.connect(_account_deleting, sender=user, dispatch_uid="response-cache-user-pages")
