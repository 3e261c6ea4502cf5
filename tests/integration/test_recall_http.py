"""The recall benchmark's replay over HTTP (bench/recall.py --via http): the same conversation
through POST .../exchanges (each recorded turn with its time) and POST .../context (each
question) on a local stack finds exactly what the in-process replay through turns finds."""

from __future__ import annotations

import pytest

from bench.recall import HttpStack, measure
from tests.functional.test_recall_replay import in_process_stack, tiny_conversation

pytestmark = pytest.mark.integration


def test_the_replay_over_http_finds_what_the_in_process_replay_finds(tmp_path, monkeypatch):
    conv = tiny_conversation(tmp_path, monkeypatch)
    with in_process_stack() as stack:
        in_process = measure(conv, stack, (300,), None)

    http = HttpStack()
    try:
        over_http = measure(conv, http, (300,), None)
        export = http._call("GET", "recall-tiny", "/v1/me/export")  # noqa: SLF001
    finally:
        http.close()

    assert over_http["per_question"] == in_process["per_question"] and over_http["per_question"][0]["convmem"]["present"]
    for key in ("turns", "facts_stored", "profile_tokens", "by_category", "other_party_facts"):
        assert over_http[key] == in_process[key], key
    # Each exchange carried its recorded time, and the fact learnt from it is dated from it
    first = next(s for s in export["sessions"] if s["sessionId"] == "recall-tiny-s1")["messages"]
    assert [m["at"] for m in first] == ["2023-05-08T13:56:00.000Z"] * 2 + ["2023-05-08T13:57:00.000Z"] * 2
    home = [f for f in export["facts"] if "Busan" in f["text"]]
    assert home and home[0]["source"]["at"] == "2023-05-08T13:57:00.000Z"
    assert not [s for s in export["sessions"] if "-q" in s["sessionId"]]  # the questions wrote nothing
