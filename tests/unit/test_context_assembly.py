import itertools
from datetime import UTC, datetime

import pytest
from convmem.domain.context_assembly import (
    FACTS_HEADER,
    OVERFLOW_HEADER,
    Layers,
    assemble,
    check_message_fits,
    render_blocks,
    request_tokens,
    split_window,
)
from convmem.domain.models import KnowledgeSnippet, Message
from convmem.domain.tokens import count_tokens
from convmem.errors import MessageTooLargeError
from hypothesis import given, settings
from hypothesis import strategies as st

AT = datetime(2026, 12, 1, tzinfo=UTC)


def conversation(n: int, start: int = 1) -> list[Message]:
    return [
        Message(seq=s, role="visitor" if s % 2 else "agent", text=f"message number {s}", channel="api", at=AT)
        for s in range(start, start + n)
    ]


def test_the_window_is_the_last_twelve_messages_in_order():
    pending, window = split_window(list(reversed(conversation(30))), 12)
    assert [m.seq for m in window] == list(range(19, 31))
    assert [m.seq for m in pending] == list(range(1, 19))


def test_a_short_conversation_is_all_window():
    pending, window = split_window(conversation(5), 12)
    assert pending == [] and [m.seq for m in window] == [1, 2, 3, 4, 5]


def test_the_request_has_the_history_verbatim_and_the_current_message_last():
    history = conversation(14)
    request, report = assemble(Layers(system="sys", current="now?"), after_cursor=history, window=12, budget=8000, reserve=1024)
    assert [m.text for m in request.history] == [m.text for m in history]
    assert request.current == "now?"
    assert (report.window_messages, report.pending_messages) == (12, 2)
    assert report.request_tokens == request_tokens(request)


@settings(deadline=None)  # the first example loads the tiktoken encoding
@given(n=st.integers(0, 60), window=st.integers(2, 20), cursor=st.integers(0, 40))
def test_every_message_after_the_cursor_is_sent_exactly_once(n, window, cursor):
    after = conversation(n, start=cursor + 1)
    request, report = assemble(Layers(system="s", current="q", summary="sum"), after_cursor=after, window=window, budget=8000, reserve=0)
    assert [m.text for m in request.history] == [m.text for m in after]
    assert report.window_messages == min(n, window)
    assert report.window_messages + report.pending_messages == n


def test_token_counting_is_offline_and_handles_korean():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("부산에 살아요") > 3


def test_a_message_that_alone_exceeds_the_budget_is_refused_with_the_numbers():
    huge = "word " * 9000
    with pytest.raises(MessageTooLargeError) as err:
        check_message_fits("sys", huge, budget=8000, reserve=1024)
    assert str(count_tokens(huge)) in err.value.message and "8000" in err.value.message


def test_a_message_that_fits_passes():
    assert check_message_fits("sys", "hi there", budget=8000, reserve=1024) == count_tokens("hi there")


# --- the request budget -------------------------------------------------------------------
WORDS = st.sampled_from(["order", "ZX-4410", "refund", "Busan", "delivery", "tomorrow", "부산에", "살아요", "shoes",
                         "$45", "please", "the", "window", "seat", "2026-12-01", "decided", "cancel", "email"])
TEXT = st.lists(WORDS, min_size=1, max_size=120).map(" ".join)


def _messages(texts, start):
    return [Message(seq=start + i, role="visitor" if (start + i) % 2 else "agent", text=t, channel="api", at=AT)
            for i, t in enumerate(texts)]


def _mentioned(request, seq_range):
    return request.overflow is not None and f"messages {seq_range[0]}-{seq_range[1]}" in request.overflow


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(TEXT, min_size=0, max_size=40), cursor=st.integers(0, 30), current=TEXT,
    summary=st.one_of(st.none(), TEXT), facts=st.lists(TEXT, max_size=6), snippets=st.lists(TEXT, max_size=6),
    profile=st.one_of(st.none(), TEXT), budget=st.integers(1500, 9000), window=st.integers(2, 14),
)
def test_the_request_never_exceeds_the_budget_and_no_message_is_dropped_silently(
    texts, cursor, current, summary, facts, snippets, profile, budget, window
):
    reserve = 256
    check_message_fits("sys", current, budget, reserve)
    history = _messages(texts, cursor + 1)
    layers = Layers(system="sys", current=current, summary=summary, profile=profile,
                    facts=[(f"f{i}", t) for i, t in enumerate(facts)],
                    knowledge=[KnowledgeSnippet(source=f"k{i}", text=t) for i, t in enumerate(snippets)])
    request, report = assemble(layers, after_cursor=history, window=window, budget=budget, reserve=reserve)

    assert report.request_tokens == request_tokens(request) <= budget - reserve
    assert request.current == current  # last and whole
    verbatim = [m.text for m in request.history]
    cut = len(history) - len(verbatim)
    assert verbatim == [m.text for m in history[cut:]]  # a contiguous, ordered suffix
    assert report.compressed_messages + report.omitted_messages == cut
    if cut:  # the rest is in the overflow block, by range; never nowhere
        assert _mentioned(request, (history[0].seq, history[cut - 1].seq))
        assert any(g.startswith("history:") for g in report.gave_way)
    else:
        assert request.overflow is None
    assert report.window_messages + report.pending_messages == len(verbatim)


def test_a_pasted_document_compresses_the_oldest_history_into_one_block():
    history = _messages([f"My order number is ZX-{4400 + i}. I decided to change the delivery address to the "
                         "new flat on the corner, second floor, please note it." for i in range(12)], 1)
    paste = "lorem ipsum dolor sit amet " * 1340  # ~6,700 tokens: with the window it no longer fits 6,976
    request, report = assemble(Layers(system="sys", current=paste), after_cursor=history, window=12, budget=8000, reserve=1024)
    assert report.compressed_messages > 0 and report.request_tokens <= 8000 - 1024
    assert request.overflow.startswith(f"{OVERFLOW_HEADER} messages 1-{report.compressed_messages}, in short:")
    assert "ZX-4400" in request.overflow  # substance kept, wording lost
    assert request.history[0].text == history[report.compressed_messages].text


def test_knowledge_is_ranked_by_relevance_and_the_least_relevant_gives_way_first():
    snippets = [KnowledgeSnippet(source="faq#1", text="Our office plants are watered weekly. " * 60),
                KnowledgeSnippet(source="faq#2", text="Refunds are paid within 5 days to the original card."),
                KnowledgeSnippet(source="faq#3", text="Gift wrapping costs extra. " * 60)]
    layers = Layers(system="sys", current="How long does a refund take?", knowledge=snippets)
    request, _ = assemble(layers, after_cursor=[], window=12, budget=8000, reserve=0)
    assert request.knowledge[0].source == "faq#2"
    request, report = assemble(layers, after_cursor=[], window=12, budget=300, reserve=0)
    assert [k.source for k in request.knowledge] == ["faq#2"]
    assert {g for g in report.gave_way if g.startswith("knowledge:")} == {"knowledge:faq#1", "knowledge:faq#3"}


def test_the_give_way_order_is_configurable():
    layers = Layers(system="sys", current="question about delivery", profile="Prefers short answers. " * 40,
                    knowledge=[KnowledgeSnippet(source="kb", text="Delivery takes two days. " * 40)])
    history = _messages(["delivery " * 30] * 4, 1)
    _, default = assemble(layers, after_cursor=history, window=12, budget=450, reserve=0)
    _, profile_first = assemble(layers, after_cursor=history, window=12, budget=450, reserve=0,
                                give_way=("profile", "history", "knowledge", "facts"))
    assert default.gave_way[0].startswith("history:") and default.profile
    assert profile_first.gave_way[0] == "profile" and profile_first.compressed_messages < default.compressed_messages


def test_when_even_the_block_cannot_hold_the_history_the_range_is_mentioned_and_reported():
    history = _messages([f"ZX-{i} " * 200 for i in range(30)], 1)
    request, report = assemble(Layers(system="sys", current="hi " * 600), after_cursor=history, window=12, budget=640, reserve=0)
    assert report.request_tokens <= 640 and report.omitted_messages > 0
    assert "left out of this request for space" in request.overflow
    assert any("only mentioned by range" in g for g in report.gave_way)


def test_relevance_matches_korean_particles_and_english_plurals():
    from convmem.domain.relevance import rank

    assert rank("부산 날씨", ["서울에 살아요", "부산에 살아요"])[0] == 1
    assert rank("refund", ["shipping times", "Refunds are fast"])[0] == 1
    # a one-syllable noun with one particle meets it with another (no bigram is that short)
    assert rank("면접 때 입은 옷은?", ["정장 매장이 문 닫음", "동성로 가서 옷을 샀어"])[0] == 1
    assert rank("집에서 뭐 해?", ["학교 숙제 끝", "집이 너무 추워"])[0] == 1


def test_a_korean_verb_meets_its_other_forms_but_a_root_many_facts_share_matches_nothing():
    from convmem.domain.relevance import bm25_scores, rank

    # 쓰나요 / 써서, 삼킨 / 삼켜, 파는 / 팔기엔, 탔나 / 탔으니: the forms share no two syllables
    filler = ["주말에 등산 다녀왔어요", "동생이 이사했어요", "회사 근처에 카페가 생겼어요", "고양이가 아파요"] * 6
    assert rank("연구실에서 어떤 프로그램을 쓰나요?", [*filler, "저희 랩은 다 EndNote 써서 바꾸기 어려워요"])[0] == len(filler)
    assert rank("단추가 삼킨 물건은?", [*filler, "양말 한 짝을 통째로 삼켜 버렸어요"])[0] == len(filler)
    assert rank("가게에서 파는 제품은?", [*filler, "향초만 팔기엔 심심해서 디퓨저도 만들어"])[0] == len(filler)
    assert rank("전에 타던 차는 얼마나 탔나?", [*filler, "아반떼는 10년 탔으니 보내줘야지"])[0] == len(filler)
    assert rank("지난주에 뭐 샀어?", [*filler, "나 차 삼 ㅋㅋ 중고로"])[0] == len(filler)  # chat's 삼 for 샀어
    # 했어요 / 하는: a root in most facts says nothing of any one
    common = ["요가 했어요", "공부 했어요", "청소 했어요", "빨래 했어요"] * 6
    assert bm25_scores("뭐 하는 중이야?", common) == [0.0] * len(common)


def test_what_a_contraction_leaves_after_its_apostrophe_matches_nothing():
    from convmem.domain.relevance import bm25_scores

    # "Declan's" shares only its 's with a sentence full of he's and that's: no match, no rank
    scores = bm25_scores("What is Declan's garden like?", ["He's sure that's what she's after, it's Nuala's",
                                                            "Tomatoes and sweet peas in the garden"])
    assert scores[0] == 0.0 < scores[1]


def test_a_question_word_does_not_match_a_relative_clause():
    from convmem.domain.relevance import bm25_scores

    scores = bm25_scores("Who are my grandchildren?", ["There's a woman, Oksana, who was an engineer in Kharkiv",
                                                        "Fionn and Roisin, the grandchildren, came up on Saturday"])
    assert scores[0] == 0.0 < scores[1]


def test_korean_how_matches_nothing_in_any_of_its_forms():
    from convmem.domain.relevance import rank

    # 어떻게 / 어땠어 are "how": the fact that names the thing asked about comes first, not echoes of "how"
    facts = ["회사는 어떻게 다녀? 재택 중이야", "여행 어땠어? 좋았어", "아버지를 어떻게 설득할지 모르겠어", "LDL도 141로 내려갔어요"]
    assert rank("LDL 수치는 어떻게 변했나요?", facts)[0] == 3
    assert rank("여행은 어땠나요?", facts)[0] == 1


def test_facts_said_on_one_day_are_listed_under_that_day_once_and_counted_as_sent():
    facts = [("f1", "Name is Ann"), ("f2", "Bought a bike (said 3 May 2024)"), ("f3", "LDL도 141로 내려갔어요 (2024-12-28에 말함)"),
             ("f4", "Sold the car (said 3 May 2024)"), ("f5", "Moved to Leeds on 2 March 2024")]
    request, report = assemble(Layers(system="s", current="q", facts=facts), after_cursor=[], window=12, budget=4000, reserve=0)
    assert render_blocks(request)[1].split("\n") == [
        FACTS_HEADER.rstrip("\n"), '- "Name is Ann"', '- "Moved to Leeds on 2 March 2024"',
        "Said on 2024-05-03:", '- "Bought a bike"', '- "Sold the car"', "Said on 2024-12-28:", '- "LDL도 141로 내려갔어요"']
    assert report.request_tokens == request_tokens(request)
    # as facts give way (least relevant first) the count stays exact and no day is left without a fact
    for budget in range(request_tokens(request) - 1, 10, -3):
        request, report = assemble(Layers(system="s", current="q", facts=facts), after_cursor=[], window=12,
                                   budget=budget, reserve=0)
        assert report.request_tokens == request_tokens(request) and report.request_tokens <= budget or not request.facts
        lines = [*render_blocks(request)[1].split("\n"), ""] if request.facts else []
        assert all(nxt.startswith("- ") for line, nxt in itertools.pairwise(lines) if line.startswith("Said on"))
