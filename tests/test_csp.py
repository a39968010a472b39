"""The content security policy header, and templates that can live with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replays.services import record_submit

ROOT = Path(__file__).resolve().parents[1]


def directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.mark.django_db
def test_pages_and_api_carry_the_policy_and_may_not_be_framed(client, make_document):
    record, _ = record_submit(document=make_document("gift_swap", seed=5))
    for path in ["/", "/records/", f"/records/{record.pk}/", "/api/records/", "/api/docs/"]:
        response = client.get(path)
        assert response.status_code == 200, path
        policy = directives(response)
        assert policy["script-src"] == "'self'", path
        assert "unsafe-inline" not in policy["script-src"]
        assert "unsafe-eval" not in policy["script-src"]
        assert policy["style-src"] == "'self' 'unsafe-inline'"
        assert policy["img-src"] == "'self' data:"
        assert policy["connect-src"] == "'self'"
        assert policy["object-src"] == "'none'"
        assert policy["base-uri"] == "'self'"
        assert policy["form-action"] == "'self'"
        assert policy["frame-ancestors"] == "'none'", path
        assert response["X-Frame-Options"] == "DENY", path


@pytest.mark.django_db
def test_only_the_embed_may_be_framed(client, make_document):
    record, _ = record_submit(document=make_document("gift_swap", seed=6))
    embed = client.get(f"/records/{record.pk}/embed/")
    assert embed.status_code == 200
    assert directives(embed)["frame-ancestors"] == "*"
    assert directives(embed)["script-src"] == "'self'"
    assert "X-Frame-Options" not in embed
    replay = client.get(f"/records/{record.pk}/")
    assert directives(replay)["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_swagger_ui_starts_from_a_script_file(client):
    page = client.get("/api/docs/").content.decode()
    assert re.search(r"<script>\s*\S", page) is None, "no inline script"
    script = client.get("/api/docs/?script")
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()


def template_files() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.html")
        if ".venv" not in path.parts and "artifacts" not in path.parts
        and "staticfiles" not in path.parts
    ]


def test_no_template_has_inline_code():
    assert len(template_files()) > 20
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
    handler = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
    found = []
    for path in template_files():
        text = path.read_text(encoding="utf-8")
        if inline_script.search(text) or handler.search(text) or "javascript:" in text:
            found.append(str(path.relative_to(ROOT)))
    assert found == []
