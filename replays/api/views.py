"""REST endpoints for records: thin views over services (writes) and selectors (reads)."""

from __future__ import annotations

import io
import json
from itertools import islice
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound as DRFNotFound
from rest_framework.generics import ListAPIView
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import schema as api_schema
from core.api.parsers import charset_check, counted, import_limit, upload_limit
from core.api.permissions import UploadAllowed, request_user
from core.api.renderers import ORJSONRenderer
from core.api.serializers import ErrorSerializer
from core.errors import BadRequest, NotFound
from core.inputs import whole_number
from games.registry import UnknownGame, all_engines, get_engine
from replays import exports, imports, response_cache, selectors, services
from replays.api import fastpath, schemas
from replays.api.serializers import (
    RecordCreatedSerializer,
    RecordSummarySerializer,
    StepQuerySerializer,
    record_filters,
)
from replays.bulk import lines_read
from replays.giftlog import JSON_SCHEMA
from replays.models import ImportJob
from replays.results import result_score_bounds
from replays.timeline import record_timeline

BULK_MAX_RECORDS = 1000

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 422: ErrorSerializer}


EXPORT_CHUNK_SIZE = 200

FILTER_PARAMETERS = [
    OpenApiParameter(
        "game",
        api_schema.game_query(blank=True),
        description='Only this game: its slug (`gift_swap`) or name ("Gift Swap").',
    ),
    OpenApiParameter(
        "player", api_schema.name_query(), description="Only games this player sat in (any case)."
    ),
    OpenApiParameter(
        "players",
        api_schema.optional(api_schema.integer(1, 100)),
        description="Only games with this many players.",
    ),
    OpenApiParameter(
        "played_after",
        api_schema.moment_query(),
        description=(
            "Only games played at or after this ISO 8601 date or date-time (a date is its "
            "midnight, UTC). Records without `meta.played_at` count as played when stored."
        ),
    ),
    OpenApiParameter(
        "played_before",
        api_schema.moment_query(),
        description=(
            "Only games played before this ISO 8601 date or date-time (exclusive); later "
            "than `played_after`."
        ),
    ),
    OpenApiParameter(
        "winner", api_schema.name_query(), description="Only games this player won (any case)."
    ),
    OpenApiParameter(
        "play",
        {"type": "string", "enum": ["", "real", "simulated", "all"]},
        description=(
            "`real`: people's games only; `simulated`: bot play only (games with a bot "
            "seat, simulations, the demo data); `all` or absent: both (each row says "
            "`simulated`)."
        ),
    ),
]


SEAT_PARAMETER = OpenApiParameter(
    "seat",
    api_schema.optional(api_schema.integer(0, 100)),
    description="As this seat saw it (0-based; a seat of the record, else 400).",
)


class RecordCursorPagination(CursorPagination):
    """Newest stored first, by id: a page never repeats or skips a record as new ones land."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param, "").strip()
        if not raw:
            return self.page_size
        size = whole_number(raw, low=1, high=self.max_page_size)
        if size is None:
            raise BadRequest(
                "bad_filter",
                f"page_size must be a whole number from 1 to {self.max_page_size}.",
                field="page_size",
                value=raw[:100],
            )
        return size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """``page_size`` with its real range (0 and 201 are refused)."""
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = api_schema.optional(api_schema.integer(1, self.max_page_size))
        return parameters

    def decode_cursor(self, request: Request) -> Cursor | None:
        try:
            return super().decode_cursor(request)
        except DRFNotFound:
            raise BadRequest(
                "bad_filter",
                "This cursor is not one the API gave out; start again from the first page.",
                field="cursor",
            ) from None


def confirm_flag(raw: str | None) -> bool:
    """``?confirm_unusual=``: true or false (1/0, yes/no), absent is false."""
    value = (raw or "").strip().lower()
    if value in {"", "false", "0", "no"}:
        return False
    if value in {"true", "1", "yes"}:
        return True
    raise BadRequest(
        "bad_filter",
        "confirm_unusual must be true or false.",
        field="confirm_unusual",
        value=raw,
    )


def plain_json(request: Request) -> bool:
    """The answer is the API's compact JSON: a cached body is these very bytes."""
    media_type = request.accepted_media_type or ""
    return request.accepted_renderer.format == "json" and "indent" not in media_type


def json_response(body: bytes) -> HttpResponse:
    return HttpResponse(body, content_type="application/json")


class RecordListCreateView(fastpath.FastCachedGet, ListAPIView):
    fast_target = staticmethod(fastpath.list_target)
    serializer_class = RecordSummarySerializer
    permission_classes = [UploadAllowed]
    pagination_class = RecordCursorPagination

    def get_queryset(self):
        filters = record_filters(self.request.query_params, known=["cursor", "page_size", "format"])
        return selectors.record_list(**filters).select_related("submitted_by")

    def list(self, request: Request, *args, **kwargs) -> Response:
        """A page of summaries from two queries of plain rows (no model instances, no log).

        The same body as ``RecordSummarySerializer``; building ~430 model objects and
        decoding 50 logs per page was most of this endpoint's time (docs/performance.md).
        """
        if not plain_json(request):
            return self._page()
        body = response_cache.cached_body(
            response_cache.LIST_TOKEN,
            response_cache.list_variant(request),
            lambda: response_cache.json_body(self._page().data),
        )
        return json_response(body)

    def _page(self) -> Response:
        rows = selectors.record_summary_rows(self.filter_queryset(self.get_queryset()))
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(selectors.record_summaries(page))

    @extend_schema(
        summary="List stored records",
        description=(
            "Newest stored first, in pages of `page_size` (default 50, at most 200): follow "
            "`next` and `previous`. A wrong filter value is `400 bad_filter` and an unknown "
            "parameter `400 invalid_query`, both naming `detail.field`."
        ),
        parameters=FILTER_PARAMETERS,
        responses={200: RecordSummarySerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Upload one finished game (giftlog/1)",
        description=(
            "Every event is checked against the rules. 201 with the computed result; 200 "
            "if this very game is already stored. An illegal event answers 422 with "
            '`{"code": "illegal_event", "detail": {"step": k, "reason": ...}}`; nothing '
            "is stored on any error. A result-only record with a score outside the game's "
            "plausible range answers 422 `result_unusual` until it is sent again with "
            "`?confirm_unusual=true`."
        ),
        parameters=[
            OpenApiParameter(
                "confirm_unusual",
                bool,
                description=(
                    "`true`: store a result-only record whose scores look unusual "
                    "(after `422 result_unusual`)."
                ),
            )
        ],
        request={"application/json": schemas.giftlog_request()},
        responses={
            201: RecordCreatedSerializer,
            200: RecordCreatedSerializer,
            401: ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request) -> Response:
        record, created = services.record_submit(
            document=request.data,
            submitted_by=request_user(request),
            confirm_unusual=confirm_flag(request.query_params.get("confirm_unusual")),
        )
        url = reverse("record-detail", args=[record.pk])
        sent = request.data.get("meta", {}) if isinstance(request.data, dict) else None
        body = RecordCreatedSerializer.build(
            record, created, request.build_absolute_uri(url), sent_meta=sent
        )
        return Response(
            body,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            headers={"Location": url},
        )


class _RawBody(BaseParser):
    """Hands the body over as a binary stream: a bulk upload is split line by line.

    Counted as it is read: past ``MAX_UPLOAD_BYTES`` the upload is refused with 413
    before anything of it is stored (every line is read before the first is stored).
    """

    def parse(self, stream, media_type=None, parser_context=None):
        charset_check(media_type)
        return counted(stream, limit=upload_limit(), parser_context=parser_context)


class NDJSONParser(_RawBody):
    media_type = "application/x-ndjson"


class JSONTextParser(_RawBody):
    media_type = "application/json"


class RecordBulkView(APIView):
    parser_classes = [NDJSONParser, JSONTextParser]
    permission_classes = [UploadAllowed]

    @extend_schema(
        summary="Upload many finished games at once",
        description=(
            "NDJSON (`application/x-ndjson`, one giftlog per line) or a JSON array. Each "
            "record is validated and stored on its own: a refused line stores nothing and "
            "does not stop the others. The answer lists every line's outcome "
            f"(at most {BULK_MAX_RECORDS} records per request)."
        ),
        request={
            "application/x-ndjson": schemas.NDJSON_REQUEST,
            "application/json": schemas.BULK_JSON_REQUEST,
        },
        responses={200: schemas.BulkResultSerializer, 400: ErrorSerializer, 401: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        # With the database away before anything is stored, the answer is a 503 in the
        # error shape (as everywhere), not a 200 listing every line as not stored; a
        # connection lost in the middle keeps the per-line report of what committed.
        connection.ensure_connection()
        body = request.data if hasattr(request.data, "read") else io.BytesIO()
        if request.content_type.split(";")[0].strip() == "application/json":
            # A JSON body is one document or an array of them (NDJSON is the line-by-line
            # form): a bare number, string or boolean is no upload at all.
            raw = body.read()
            if raw.strip() and raw.lstrip()[:1] not in (b"{", b"["):
                raise BadRequest(
                    "not_a_document",
                    "A JSON body is one giftlog document (an object) or an array of them.",
                )
            body = io.BytesIO(raw)
        lines = list(islice(lines_read(body), BULK_MAX_RECORDS + 1))
        if not lines:
            raise BadRequest("empty_upload", "The upload holds no records.")
        if len(lines) > BULK_MAX_RECORDS:
            raise BadRequest(
                "too_many_records",
                f"At most {BULK_MAX_RECORDS} records per request; this one has more.",
                limit=BULK_MAX_RECORDS,
            )
        try:
            outcomes = services.records_submit_many(lines, submitted_by=request_user(request))
            items = [outcome.to_json() for outcome in outcomes]
        except UnicodeDecodeError as exc:
            raise BadRequest("malformed_json", "The body must be UTF-8 text.") from exc
        tally = {
            key: sum(1 for item in items if item["status"] == key)
            for key in ("stored", "present", "refused")
        }
        pending = selectors.records_awaiting_analytics(
            record_ids=[item["id"] for item in items if "id" in item]
        )
        return Response({**tally, "analytics_pending": pending, "items": items})


class _StreamBody(BaseParser):
    """Hands the body over as a binary stream: a large import is read line by line.

    Counted as it is read: past ``MAX_IMPORT_BYTES`` the import is refused with 413
    and its transaction rolled back, so nothing of it is kept.
    """

    media_type = "application/x-ndjson"

    def parse(self, stream, media_type=None, parser_context=None):
        charset_check(media_type)
        return counted(
            stream, limit=import_limit(), parser_context=parser_context, what="An import"
        )


class ImportJobCreateView(APIView):
    parser_classes = [_StreamBody]
    permission_classes = [UploadAllowed]

    @extend_schema(
        summary="Import a large NDJSON file in the background",
        description=(
            "The lines are kept and imported by workers on the `imports` queue, in chunks "
            "(each line checked and stored as by `POST /api/records/bulk/`, without its "
            "size limit). 202 with the job; follow `Location` for progress."
        ),
        request={"application/x-ndjson": schemas.NDJSON_REQUEST},
        responses={202: OpenApiTypes.OBJECT, 400: ErrorSerializer, 401: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        job = imports.import_job_create(stream=request.data, submitted_by=request_user(request))
        url = reverse("import-detail", args=[job.pk])
        return Response(
            imports.import_job_json(job), status=status.HTTP_202_ACCEPTED, headers={"Location": url}
        )


class ImportJobDetailView(APIView):
    @extend_schema(
        summary="Progress of an import job",
        description=(
            "Counts of lines stored, already present and refused so far, whether every "
            "chunk is done, and each refusal with its line and error."
        ),
        responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer},
    )
    def get(self, request: Request, job_id: int) -> Response:
        job = ImportJob.objects.filter(pk=job_id).first()
        if job is None:
            raise NotFound("unknown_import", f"There is no import job {job_id}.", field="id")
        return Response(imports.import_job_json(job))


class NDJSONRenderer(BaseRenderer):
    """Lets a client ask for ``Accept: application/x-ndjson``; an error is one JSON line."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return (json.dumps(data, ensure_ascii=False) + "\n").encode()


EXPORT_PARAMETERS = [
    *FILTER_PARAMETERS,
    OpenApiParameter(
        "after",
        api_schema.optional(api_schema.integer(0, exports.MAX_RECORD_ID)),
        description=(
            "Resume an export: only records stored after this record id (the `after` of the "
            "previous answer's `Link: rel=next`)."
        ),
    ),
    OpenApiParameter(
        "limit",
        api_schema.optional(api_schema.integer(1, settings.EXPORT_PAGE_RECORDS)),
        description="At most this many records in this answer (1 to `EXPORT_PAGE_RECORDS`).",
    ),
]


class RecordExportView(APIView):
    renderer_classes = [ORJSONRenderer, NDJSONRenderer]

    @extend_schema(
        summary="Export the records a filter finds, as NDJSON",
        description=(
            "One giftlog/1 document per line, exactly as `GET /api/records/{id}/` gives it, "
            "oldest stored first, streamed. `POST /api/records/bulk/` (or `manage.py "
            "import_records`) takes the file back: the same records, nothing new stored. "
            "The filters are the list's, with the same 400s. One answer holds at most "
            '`EXPORT_PAGE_RECORDS` records; when more are left, `Link: <...>; rel="next"` '
            "gives the URL that resumes (`after=<last id>`). Records exported count against "
            "the client's export budget; past it, `429 quota_exceeded` with `Retry-After`."
        ),
        parameters=EXPORT_PARAMETERS,
        responses={
            (200, "application/x-ndjson"): OpenApiTypes.STR,
            (400, "application/json"): ErrorSerializer,
            (429, "application/json"): ErrorSerializer,
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        query = request.query_params
        filters = record_filters(query, known=["format", "after", "limit"])
        plan = exports.export_plan(
            records=selectors.record_list(**filters),
            after=exports.whole_number(query, "after", 0, exports.MAX_RECORD_ID, default=0),
            limit=exports.whole_number(
                query, "limit", 1, settings.EXPORT_PAGE_RECORDS, default=None
            ),
            client=exports.ExportClient.of(request._request, request_user(request)),
        )
        lines = (
            json.dumps(selectors.record_document(record), ensure_ascii=False) + "\n"
            for record in plan.records.iterator(chunk_size=EXPORT_CHUNK_SIZE)
        )
        response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
        filename = f"giftbox-{timezone.localdate().isoformat()}.ndjson"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        if plan.next_after is not None:
            resume = query.copy()
            resume["after"] = str(plan.next_after)
            next_url = request.build_absolute_uri(f"{request.path}?{resume.urlencode()}")
            response["Link"] = f'<{next_url}>; rel="next"'
        return response


class RecordDetailView(fastpath.FastCachedGet, APIView):
    fast_target = staticmethod(fastpath.detail_target)

    @extend_schema(
        summary="A record as giftlog/1 (upload it again: the same document)",
        responses={200: schemas.GiftlogSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, record_id: int) -> HttpResponse:
        if plain_json(request):
            return json_response(selectors.record_detail_json(record_id))
        record = selectors.record_get(record_id=record_id)
        return Response(selectors.record_document(record))


class RecordStepView(fastpath.FastCachedGet, APIView):
    fast_target = staticmethod(fastpath.step_target)
    fast_build = staticmethod(fastpath.step_build)
    fast_needs = staticmethod(fastpath.step_needs)

    @extend_schema(
        summary="The state after k events",
        description=(
            "As everyone sees it, or with `seat` as that seat saw it: the state, the "
            "event that led there, whose turn it is, the legal events and scores so far."
        ),
        parameters=[SEAT_PARAMETER],
        responses={200: schemas.StepSerializer, **ERRORS, 409: ErrorSerializer},
    )
    def get(self, request: Request, record_id: int, step: int) -> HttpResponse:
        query = StepQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        seat = query.validated_data.get("seat")
        if plain_json(request):
            return json_response(selectors.record_step_json(record_id, step=step, seat=seat))
        record = selectors.record_get(record_id=record_id)
        return Response(selectors.record_step_view(record, step=step, seat=seat))


class RecordTimelineView(fastpath.FastCachedGet, APIView):
    fast_target = staticmethod(fastpath.timeline_target)

    @extend_schema(
        summary="Every step of a record at once, told in words",
        description=(
            "One entry per step (step 0 is the set-up): the actor (seat and player name; "
            "`null` seat for chance), a sentence telling the event, the event as that "
            "viewer may see it, and the running scores where that viewer may know them. "
            "With `seat`, everything is as that seat saw it."
        ),
        parameters=[SEAT_PARAMETER],
        responses={200: schemas.TimelineSerializer, **ERRORS, 409: ErrorSerializer},
    )
    def get(self, request: Request, record_id: int) -> HttpResponse:
        query = StepQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        seat = query.validated_data.get("seat")
        if request.accepted_renderer.format == "json":  # the cached bytes, as they are
            return json_response(selectors.record_timeline_body(record_id, seat=seat))
        record, players = selectors.record_timeline_checked(record_id, seat=seat)
        return Response(record_timeline(record, players=players, seat=seat))


def game_json(engine) -> dict:
    return {
        "slug": engine.slug,
        "name": engine.name,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "event_types": sorted(engine.event_types),
        "options": [option.to_json() for option in engine.options],
        # Lowest and highest final score of a seat with the default options: what a
        # result-only record's scores are checked against (a plausible highest where
        # the rules set none, replays.results.result_score_bounds).
        "score_bounds": {
            str(n): list(result_score_bounds(engine, n, {}))
            for n in range(engine.min_players, engine.max_players + 1)
        },
        "rules": reverse("rules-page", args=[engine.slug]),
    }


class GameListView(APIView):
    @extend_schema(
        operation_id="games_list",
        summary="The games this service knows",
        description=(
            "Each game's slug, name, player counts, event types and options (house rules "
            "and set-up choices: type, allowed values, default, the rulebook sentence each "
            "interprets and why the default reads it best), and `score_bounds`: per player "
            "count, the lowest and highest final score of a seat under the default options, "
            "which result-only records are checked against (where the rules set no highest "
            "score, a plausible one)."
        ),
        responses={200: schemas.GameListSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response({"games": [game_json(engine) for engine in all_engines()]})


class GameDetailView(APIView):
    @extend_schema(
        summary="One game, with its card catalog",
        description=(
            "As in the list, plus `cards`: every card id with the name, value, icon, "
            "colour and effect a page or a bot shows for it."
        ),
        responses={200: schemas.GameDetailSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            engine = get_engine(slug)
        except UnknownGame:
            raise NotFound("unknown_game", f"There is no game {slug!r}.", field="slug") from None
        return Response({**game_json(engine), "cards": engine.card_catalog()})


class GiftlogSchemaView(APIView):
    @extend_schema(
        summary="JSON Schema of the giftlog/1 envelope", responses={200: OpenApiTypes.OBJECT}
    )
    def get(self, request: Request) -> Response:
        return Response(JSON_SCHEMA)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE"])
def api_not_found(request: Request) -> Response:
    """Unknown API paths answer in the API's error shape, not with an HTML page."""
    return Response(
        {"code": "not_found", "message": f"No API endpoint at {request.path}.", "detail": {}},
        status=status.HTTP_404_NOT_FOUND,
    )
