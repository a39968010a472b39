"""Serializers every app's API shares: the one error shape, for the schema."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.DictField()
