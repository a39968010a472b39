"""iCal feeds of events (RFC 5545, written by the ``icalendar`` package).

Each event keeps one UID for good, ``event-<id>@giftbox``, so a calendar that
subscribed once updates the entry (a new time, a new place) instead of adding one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

import icalendar
from django.http import HttpRequest
from django.urls import reverse

from events.models import Event

DEFAULT_LENGTH = timedelta(hours=3)  # an event without an end lasts an evening


def event_uid(event: Event) -> str:
    return f"event-{event.pk}@giftbox"


def events_ics(events: Iterable[Event], *, name: str, request: HttpRequest) -> bytes:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//giftbox//events//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    for event in events:
        item = icalendar.Event()
        item.add("uid", event_uid(event))
        item.add("summary", event.name)
        item.add("dtstart", event.starts_at)
        item.add("dtend", event.ends_at or event.starts_at + DEFAULT_LENGTH)
        item.add("dtstamp", event.created_at)
        if event.location:
            item.add("location", event.location)
        item.add("url", request.build_absolute_uri(reverse("event-page", args=[event.pk])))
        if event.status == Event.Status.FINISHED:
            item.add("status", "CONFIRMED")
        cal.add_component(item)
    return cal.to_ical()
