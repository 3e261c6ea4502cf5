"""The blind rounds' kit (bench/round_kit.py): its check holds a helper's file to what the set asks,
so a file that passes can join it as written; its briefs leave nothing of the template unfilled."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.round_kit import problems, write_briefs

SET = Path(__file__).resolve().parents[2] / "bench" / "conversations"


def _copy(tmp_path: Path, name: str, change) -> Path:
    sample = json.loads((SET / name).read_text())
    change(sample[0])
    path = tmp_path / name
    path.write_text(json.dumps(sample, ensure_ascii=False))
    return path


def test_files_of_the_set_pass_the_check():
    for name in ("en_joey_frankie.json", "ko_hayoung_seulgi.json"):
        found, summary = problems(SET / name)
        assert found == [] and "questions {4: 15, 1: 8, 2: 11, 3: 6, 5: 0}" in summary


def test_evidence_that_is_the_other_partys_or_a_date_said_outright_fails(tmp_path):
    def other_partys(sample):
        theirs = next(u["dia_id"] for u in sample["conversation"]["session_1"] if u["speaker"] == sample["conversation"]["speaker_b"])
        next(q for q in sample["qa"] if q["category"] == 4)["evidence"] = [theirs]
    found, _ = problems(_copy(tmp_path, "en_joey_frankie.json", other_partys))
    assert any("the other party's message" in p for p in found)

    def dated_outright(sample):
        q = next(q for q in sample["qa"] if q["category"] == 2)
        session, n = q["evidence"][0][1:].split(":")
        message = sample["conversation"][f"session_{session}"][int(n) - 1]
        message["text"] += f" ({q['answer']})"
    found, _ = problems(_copy(tmp_path, "en_joey_frankie.json", dated_outright))
    assert any("names the date itself" in p for p in found)


def test_the_briefs_leave_nothing_of_the_template_unfilled(tmp_path):
    common = {"FILE": "en_a_b", "SID": "a-b", "V": "Ann Lee", "O": "Bo Lee", "VFIRST": "Ann", "PERSONA": "a nurse",
              "OTHER": "her brother", "STYLE": "lower case."}
    persona = {"en": {**common, "OFIRST": "Bo", "OPOSS": "his", "OPRON": "he"},
               "ko": {**common, "FILE": "ko_a_b", "ASKS": "her people"}}
    for path in write_briefs(tmp_path / "round9", 9, persona):
        text = path.read_text()
        assert "Ann Lee" in text and "bench.round_kit check" in text and str(tmp_path / "round9") in text
        assert not re.search(r"\{[A-Z]+\}", text) and "convmem-a-b" in text
