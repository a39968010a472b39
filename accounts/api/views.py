"""``/api/tokens/``: a user lists, makes and revokes their own API tokens.

Authenticated by session (the pages) or by a token (a program rotating its
own key). A token's key appears once, in the answer that made it.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.models import ApiToken
from core.api.serializers import ErrorSerializer, StrictCharField


class ApiTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
        read_only_fields = fields


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    key = serializers.CharField(
        read_only=True, help_text="The secret: shown only in this answer, never again."
    )

    class Meta(ApiTokenSerializer.Meta):
        fields = [*ApiTokenSerializer.Meta.fields, "key"]
        read_only_fields = fields


class ApiTokenCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100, help_text='What it is for: "league bot".')


ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer}


class ApiTokenListCreateView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your API tokens",
        description="Newest first, revoked ones too (with `revoked_at`). Keys are never shown.",
        responses={200: ApiTokenSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        tokens = selectors.api_token_list(user=request.user)
        return Response(ApiTokenSerializer(tokens, many=True).data)

    @extend_schema(
        summary="Make an API token",
        description=(
            "Answers the token with its `key`, the only time the key is shown. Programs send "
            "it as `Authorization: Token <key>`."
        ),
        request=ApiTokenCreateSerializer,
        responses={201: ApiTokenCreatedSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        body = ApiTokenCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        token, key = services.api_token_create(user=request.user, name=body.validated_data["name"])
        data = {**ApiTokenSerializer(token).data, "key": key}
        return Response(data, status=status.HTTP_201_CREATED)


class ApiTokenDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Revoke one of your API tokens",
        description=(
            "It is refused from then on (401 `token_revoked`). Another user's token is 404."
        ),
        responses={204: None, 404: ErrorSerializer, **ERRORS},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        services.api_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
