"""Live play endpoints: thin views over replays.live."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import UploadAllowed, request_user
from core.api.serializers import ErrorSerializer
from core.api.throttling import client_ident
from core.errors import BadRequest
from replays import live as live_play
from replays import selectors
from replays.api import schemas

SEAT_HEADER = OpenApiParameter(
    "Authorization",
    str,
    location=OpenApiParameter.HEADER,
    description="`Seat <token>`: one of the tokens returned when the game was opened.",
)
ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 422, 429), ErrorSerializer)


def seat_token(request: Request | HttpRequest) -> str | None:
    """The token of ``Authorization: Seat <token>`` (API and page requests alike), or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "seat" and token.strip() else None


class LiveGameCreateView(APIView):
    permission_classes = [UploadAllowed]

    @extend_schema(
        summary="Open a live game",
        description=(
            "Body: `game`, `players` (names in seat order), optional `options`, `meta` and "
            "`seed` (for repeatable chance). Answers the game id and one secret token per "
            "seat, shown only this once. Chance events (shuffles, deals) are drawn by the "
            "server and recorded like any other event."
        ),
        request={"application/json": schemas.live_request()},
        responses={201: schemas.LiveCreatedSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        live, tokens = live_play.live_game_create(
            document=request.data, opened_by=request_user(request), client=_address(request)
        )
        return _opened(request, live, tokens)


def _address(request: Request) -> str | None:
    """The client's address (behind ``NUM_PROXIES`` trusted proxies), for the allowance
    of live games a client without an account may open."""
    return client_ident(request._request)


def _opened(request: Request, live, tokens: list[str | None], **extra) -> Response:
    url = reverse("live-detail", args=[live.pk])
    return Response(
        {
            "id": live.pk,
            "game": live.game,
            "players": live.players,
            "seat_tokens": tokens,
            "url": request.build_absolute_uri(url),
            "page": request.build_absolute_uri(reverse("live-page", args=[live.pk])),
            **extra,
        },
        status=status.HTTP_201_CREATED,
        headers={"Location": url},
    )


class RecordForkView(APIView):
    permission_classes = [UploadAllowed]

    @extend_schema(
        summary="Play on from a step of a stored record (a what-if line)",
        description=(
            'Body: `{"step": k, "seats": ["person", "greedy", ...], "seed": optional}`. '
            "Starts a live game whose first k events are the record's; each seat is a "
            'person (it gets a seat token) or a bot the server plays (`"greedy"`, '
            '`"random"`). Answers like opening a live game. Forking at the last step '
            "is refused (422 `game_over`), and a result-only record, which has no events, "
            "with 409 `not_replayable`."
        ),
        request={"application/json": schemas.FORK_REQUEST},
        responses={201: schemas.LiveCreatedSerializer, **ERRORS},
    )
    def post(self, request: Request, record_id: int) -> Response:
        body = request.data
        if not isinstance(body, dict) or "step" not in body:
            raise BadRequest("invalid_request", 'Send {"step": k, "seats": [...]}.', field="step")
        record = selectors.record_get(record_id=record_id)
        live, tokens = live_play.live_game_fork(
            record=record,
            players=selectors.record_player_names(record),
            step=body.get("step"),
            seats=body.get("seats"),
            seed=body.get("seed"),
            opened_by=request_user(request),
            client=_address(request),
        )
        origin = {"record": record.pk, "step": body["step"]}
        return _opened(request, live, tokens, forked_from=origin)


class LiveGameDetailView(APIView):
    @extend_schema(
        summary="A live game as your seat sees it",
        description=(
            "While the game is live a seat token is required and only that seat's view is "
            "shown: its state, the events as it saw them, and its legal events. Once the "
            "game is over it is a stored record and anyone may look."
        ),
        parameters=[SEAT_HEADER],
        responses={200: schemas.LiveGameSerializer, **ERRORS},
    )
    def get(self, request: Request, live_id: int) -> Response:
        live = live_play.live_game_get(live_id=live_id)
        token = seat_token(request)
        seat = live_play.live_seat_authenticate(live, token) if token else None
        return Response(live_play.live_game_view(live, seat=seat))


class LiveEventView(APIView):
    @extend_schema(
        summary="Play one event in a live game",
        description=(
            'Body: `{"step": k, "event": {"do": ..., ...}}` where `k` is the number of '
            "events you have seen (a stale `k` answers 409 `stale_step`). `by` defaults to "
            "your seat. An illegal event answers 422 naming the step and the reason; nothing "
            "is recorded for it. The answer is your new view."
        ),
        parameters=[SEAT_HEADER],
        request={"application/json": schemas.LIVE_EVENT_REQUEST},
        responses={201: schemas.LiveGameSerializer, **ERRORS, 409: ErrorSerializer},
    )
    def post(self, request: Request, live_id: int) -> Response:
        body = request.data
        if not isinstance(body, dict) or "event" not in body:
            raise BadRequest(
                "invalid_request", 'Send {"step": <events seen>, "event": {...}}.', field="event"
            )
        step = body.get("step")
        if not isinstance(step, int) or isinstance(step, bool):
            # Required: an event sent without the step it was chosen at could land on a
            # state its sender never saw.
            raise BadRequest(
                "invalid_request",
                '"step" (the number of events you have seen) must be a whole number.',
                field="step",
            )
        live, seat = live_play.live_event_submit(
            live_id=live_id, token=seat_token(request), event=body["event"], expected_step=step
        )
        return Response(live_play.live_game_view(live, seat=seat), status=status.HTTP_201_CREATED)
