"""The short profile: standing background within its cap (pure domain)."""

from __future__ import annotations

import os
import subprocess
import sys

from convmem.domain.profile import cap_profile, write_profile
from convmem.domain.tokens import count_tokens


def test_profile_says_language_tone_and_what_they_come_for():
    text = write_profile(None, [
        "Where is my order A-1042? The delivery is late", "Can you check the delivery status please?",
        "Thanks, and my order also had a damaged box", "Please send the refund to my card",
    ], 150)
    assert "Writes in English." in text
    assert "Tone: polite" in text
    assert "order" in text and "delivery" in text


def test_chat_words_times_and_whom_they_address_are_not_what_they_come_about():
    text = write_profile(None, [
        "Really amazing week, I made a pottery bowl two days ago!", "Next week I'm back at pottery, really love it",
        "재민아, 그리고 다음 주에 도예 수업 또 가", "재민아 진짜 도예 수업 너무 좋았어",
    ], 150)
    topics = text.split("Usually comes about: ")[1]
    assert "pottery" in topics and "도예" in topics
    assert not any(w in topics for w in ("really", "amazing", "week", "two", "재민", "그리고", "다음", "진짜", "좋았어"))


def test_korean_writer_and_old_topics_carried_over():
    text = write_profile("Writes in English.\nUsually comes about: refund.", ["주문한 상품이 아직 안 왔어요", "배송 상태 확인해 주세요", "주문 번호는 A-1042예요"], 150)
    assert "Writes in Korean." in text and "주문" in text and "refund" in text


def test_names_and_places_are_facts_not_background():
    text = write_profile(None, ["My name is Minji and I live in Busan", "Minji here again, still in Busan"], 150)
    assert "Minji" not in text and "Busan" not in text


def test_the_cap_holds_for_any_model_output():
    long = "\n".join(f"Line {i}: " + "background detail " * 20 for i in range(20))
    capped = cap_profile(long, 150)
    assert count_tokens(capped) <= 150 and capped.startswith("Line 0:")
    assert count_tokens(write_profile(None, [long] * 5, 150)) <= 150


def test_no_new_messages_keeps_the_old_profile():
    assert write_profile("Writes in Korean.", [], 150) == "Writes in Korean."


def test_topics_said_as_often_keep_the_order_they_were_said_in_every_process():
    messages = ["walked the greyhound then did the allotment and the quiz", "greyhound, allotment, quiz again tonight"]
    script = ("from convmem.domain.profile import write_profile; import sys; "
              f"print(write_profile(None, {messages!r}, 150).splitlines()[-1])")
    runs = {subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": os.pathsep.join(sys.path)},
                           capture_output=True, text=True, check=True).stdout for seed in range(6)}
    assert runs == {"Usually comes about: greyhound, allotment, quiz.\n"}
