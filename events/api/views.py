"""REST endpoints for events: thin views over ``events.services`` and ``events.selectors``.

Reading follows who may see an event (``selectors.event_visible``: a private event
answers 404 as if absent); writing needs an account, and who may write what is
decided in the services (403 ``not_organiser``, ``not_at_table``, ``own_result``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api.views import ERRORS, READ_ERRORS, ReadOpenWriteAuthenticated
from clubs.models import Club, Season
from core.api import schema as api_schema
from core.api.permissions import request_user
from core.errors import BadRequest, NotFound, Unprocessable
from core.inputs import whole_number
from events import selectors, services
from events.api.serializers import (
    EventCheckInSerializer,
    EventCreateSerializer,
    EventDetailSerializer,
    EventEntryCreateSerializer,
    EventEntrySerializer,
    EventResultSubmitSerializer,
    EventRoundSerializer,
    EventSeatNextSerializer,
    EventSerializer,
    EventStandingsSerializer,
    EventStatusSerializer,
    EventSwapResultSerializer,
    EventSwapSerializer,
    EventTableResultSerializer,
    EventTableSerializer,
)
from events.models import Entry, Event, Round


class _Base(APIView):
    permission_classes = [ReadOpenWriteAuthenticated]


def _valid(serializer_class: Any, request: Request) -> dict[str, Any]:
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _event(request: Request, event_id: int) -> Event:
    event = selectors.event_get(event_id=event_id)
    return selectors.event_require_visible(event=event, user=request_user(request))


def _detail(event: Event) -> dict[str, Any]:
    return EventDetailSerializer(selectors.event_detail(event_id=event.pk)).data


def _entry(event: Event, entry_id: int) -> Entry:
    entry = Entry.objects.select_related("player", "event").filter(event=event, pk=entry_id).first()
    if entry is None:
        raise NotFound("entry_not_found", f"{event.name} has no entry {entry_id}.")
    return entry


class EventListView(_Base):
    @extend_schema(summary="Events you may see", responses={200: EventSerializer(many=True)})
    def get(self, request: Request) -> Response:
        events = selectors.event_list(user=request_user(request))
        return Response(EventSerializer(events, many=True).data)

    @extend_schema(
        summary="Make an event (club admins; an open event: anyone signed in)",
        request=EventCreateSerializer,
        responses={201: EventDetailSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = _valid(EventCreateSerializer, request)
        club = None
        if data.get("club"):
            club = Club.objects.filter(slug=data["club"]).first()
            if club is None:
                raise NotFound("club_not_found", f"There is no club {data['club']!r}.")
        season = None
        if data.get("season"):
            season = Season.objects.select_related("league").filter(pk=data["season"]).first()
            if season is None:
                raise Unprocessable("season_not_found", "There is no such season.")
        event = services.event_create(
            user=request.user,
            club=club,
            name=data["name"],
            slug=data["slug"],
            game=data["game"],
            options=data.get("options"),
            format=data["format"],
            rounds=data["rounds"],
            final_top_table=data["final_top_table"],
            min_table=data.get("min_table"),
            max_table=data.get("max_table"),
            points_per_place=data.get("points_per_place"),
            starts_at=data["starts_at"],
            ends_at=data.get("ends_at"),
            location=data.get("location", ""),
            season=season,
        )
        return Response(_detail(event), status=status.HTTP_201_CREATED)


class EventDetailView(_Base):
    @extend_schema(
        summary="An event: entries, rounds, tables, results",
        responses={200: EventDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(_detail(_event(request, event_id)))

    @extend_schema(
        summary="Open a draft for entries, or back to draft (organiser)",
        request=EventStatusSerializer,
        responses={200: EventDetailSerializer, **ERRORS},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        data = _valid(EventStatusSerializer, request)
        services.event_status_set(event=event, user=request.user, status=data["status"])
        return Response(_detail(event))

    @extend_schema(
        summary="Remove an event before its first round (organiser)",
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, event_id: int) -> Response:
        services.event_delete(event=_event(request, event_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventFinishView(_Base):
    @extend_schema(
        summary="Finish the event (organiser)",
        request=None,
        responses={200: EventDetailSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=_event(request, event_id), user=request.user)
        return Response(_detail(event))


class EntryListView(_Base):
    @extend_schema(
        summary="Entries", responses={200: EventEntrySerializer(many=True), **READ_ERRORS}
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        return Response(EventEntrySerializer(selectors.entries_of(event), many=True).data)

    @extend_schema(
        summary="Enter a player (organisers, by handle) or yourself",
        request=EventEntryCreateSerializer,
        responses={201: EventEntrySerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        data = _valid(EventEntryCreateSerializer, request)
        if data.get("handle"):
            entry = services.entry_add(
                event=event, user=request.user, handle=data["handle"], checked_in=data["checked_in"]
            )
        else:
            entry = services.entry_join(event=event, user=request.user)
        return Response(EventEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(_Base):
    @extend_schema(
        summary="Take an entry out (before it has played)", responses={204: None, **ERRORS}
    )
    def delete(self, request: Request, event_id: int, entry_id: int) -> Response:
        entry = _entry(_event(request, event_id), entry_id)
        services.entry_remove(entry=entry, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryCheckInView(_Base):
    @extend_schema(
        summary="Check a player in (or out); after a round is seated, a late arrival",
        request=EventCheckInSerializer,
        responses={200: EventEntrySerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        entry = _entry(_event(request, event_id), entry_id)
        data = _valid(EventCheckInSerializer, request)
        entry = services.entry_check_in(
            entry=entry, user=request.user, checked_in=data["checked_in"]
        )
        return Response(EventEntrySerializer(entry).data)


class EntryDropView(_Base):
    @extend_schema(
        summary="Drop out (the player or the organiser)",
        request=None,
        responses={200: EventEntrySerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        entry = _entry(_event(request, event_id), entry_id)
        return Response(
            EventEntrySerializer(services.entry_drop(entry=entry, user=request.user)).data
        )


class RoundListView(_Base):
    @extend_schema(
        summary="Rounds", responses={200: EventRoundSerializer(many=True), **READ_ERRORS}
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        return Response(EventRoundSerializer(selectors.rounds_of(event), many=True).data)

    @extend_schema(
        summary="Seat the next round (organiser)",
        request=EventSeatNextSerializer,
        responses={201: EventRoundSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        data = _valid(EventSeatNextSerializer, request)
        rnd = services.round_seat_next(event=event, user=request.user, seed=data.get("seed"))
        return Response(_round_data(event, rnd.number), status=status.HTTP_201_CREATED)


def _round_data(event: Event, number: int) -> dict[str, Any]:
    rnd = next(r for r in selectors.rounds_of(event) if r.number == number)
    return EventRoundSerializer(rnd).data


def _round(event: Event, number: int) -> Round:
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        raise NotFound("round_not_found", f"{event.name} has no round {number}.")
    return rnd


class RoundFinishView(_Base):
    @extend_schema(
        summary="Finish a round once every result is confirmed (organiser)",
        request=None,
        responses={200: EventRoundSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        services.round_finish(event=event, user=request.user, round_number=number)
        return Response(_round_data(event, number))


class RoundSwapView(_Base):
    @extend_schema(
        summary="Swap two seated players before any result (organiser)",
        request=EventSwapSerializer,
        responses={200: EventSwapResultSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(request, event_id)
        _round(event, number)
        data = _valid(EventSwapSerializer, request)
        outcome = services.seat_swap(
            event=event,
            user=request.user,
            round_number=number,
            first=_entry(event, data["first"]),
            second=_entry(event, data["second"]),
        )
        return Response(
            {
                "before": outcome.before,
                "after": outcome.after,
                "change": outcome.change,
                "round": _round_data(event, number),
            }
        )


class TableDetailView(_Base):
    @extend_schema(summary="A table", responses={200: EventTableSerializer, **READ_ERRORS})
    def get(self, request: Request, event_id: int, number: int, table: int) -> Response:
        event = _event(request, event_id)
        found = selectors.table_get(event=event, round_number=number, table_number=table)
        return Response(EventTableSerializer(found).data)


class TableResultView(_Base):
    @extend_schema(
        summary="Propose a table's result: scores per seat, or a full move log",
        request=EventResultSubmitSerializer,
        responses={201: EventTableResultSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        event = _event(request, event_id)
        found = selectors.table_get(event=event, round_number=number, table_number=table)
        data = _valid(EventResultSubmitSerializer, request)
        if "document" in data:
            result = services.table_log_submit(
                table=found, user=request.user, document=data["document"]
            )
        else:
            result = services.table_result_submit(
                table=found,
                user=request.user,
                scores=data["scores"],
                ranks=data.get("ranks"),
                confirm_unusual=data["confirm_unusual"],
            )
        return Response(EventTableResultSerializer(result).data, status=status.HTTP_201_CREATED)


class TableConfirmView(_Base):
    @extend_schema(
        summary="Confirm a table's result: another player of the table, or the organiser",
        request=None,
        responses={200: EventTableResultSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        event = _event(request, event_id)
        found = selectors.table_get(event=event, round_number=number, table_number=table)
        result = services.table_result_confirm(table=found, user=request.user)
        return Response(EventTableResultSerializer(result).data)


class StandingsView(_Base):
    @extend_schema(
        summary="Standings, with each row's tie-break in words",
        parameters=[
            OpenApiParameter(
                "after_round",
                api_schema.integer(0, 1000),
                description="Standings after this round (default: the last seated).",
                required=False,
            )
        ],
        responses={200: EventStandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(request, event_id)
        raw = request.query_params.get("after_round")
        after = None if raw is None else whole_number(raw, high=1000)
        if raw is not None and after is None:
            raise BadRequest("invalid_request", "after_round is a round number (0 to 1000).")
        return Response(
            EventStandingsSerializer(selectors.standings(event=event, after_round=after)).data
        )
