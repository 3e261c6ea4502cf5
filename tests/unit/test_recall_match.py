"""The recall benchmark's judge: what counts as 'the answer is in the request'.

A matcher that is too strict blames every system for paraphrase it cannot see; one that is
too lax credits a system for words it never recalled. These pin both edges.
"""

from __future__ import annotations

from datetime import date

import pytest

from bench.recall_match import Request, normalise, resolved_range


@pytest.mark.parametrize("written", ["7 May 2023", "May 7, 2023", "2023-05-07", "7th of May, 2023", "may 7 2023",
                                     "1:56 pm on 7 May, 2023", "2023년 5월 7일"])
def test_a_date_is_found_whatever_format_either_side_writes_it_in(written):
    assert Request(f"Went to the support group on {written}.").has_answer("7 May 2023")
    assert Request("Went on 2023-05-07.").has_answer(written.split(" on ")[-1])


def test_a_different_day_is_not_the_same_date():
    assert not Request("Went on 17 May 2023").has_answer("7 May 2023")
    assert not Request("Went on 2023-05-17").has_answer("2023-05-01")


@pytest.mark.parametrize("answer", ["15 March", "March 15th", "the 15th of March", "3월 15일"])
def test_a_day_said_without_its_year_is_found_when_the_request_wrote_the_year_out(answer):
    assert Request("The exam moved from 15 March 2025 to 10 May 2025").has_answer(answer)
    assert Request("시험 2025년 3월 15일 거 취소하고 2025년 5월 10일로 옮겼어요").has_answer(f"{answer}, 5월 10일")
    assert not Request("The exam moved from 16 March 2025 to 10 May 2025").has_answer(answer)  # another day


@pytest.mark.parametrize(("answer", "sent", "other"), [
    ("September", "Pushed the trip back to September 2025", "Pushed the trip back to October 2025"),
    # (months in Korean words)
    ("유월, 구월, 취소", "제주도는 2025년 9월로 미뤄부렀어 2025년 6월엔 못 걸어. 결국 취소했어",
     "제주도는 2025년 10월로 미뤄부렀어 2025년 6월엔 못 걸어. 결국 취소했어"),
    ("9월", "2025년 9월 14일에 갔어", "2025년 10월 14일에 갔어"),  # (a month meets any day of it)
])
def test_a_month_said_without_its_year_is_found_when_the_request_wrote_the_year_out(answer, sent, other):
    assert Request(sent).has_answer(answer)
    assert not Request(other).has_answer(answer)  # another month


def test_a_dated_answer_still_needs_its_year():
    assert not Request("The exam is on 15 March 2025").has_answer("15 March 2024")


def test_case_punctuation_and_whitespace_do_not_matter():
    assert Request("Known facts:\n- Researches   ADOPTION-agencies!").has_answer("adoption agencies")
    assert Request("Caroline's plan: adoption.").has_answer("Caroline plan")


def test_a_word_is_matched_whole_not_inside_another():
    assert not Request("We went to a party.").has_answer("art")
    assert Request("We went to an art party.").has_answer("art")


def test_a_list_answer_needs_every_content_word_in_any_order():
    request = Request("- Swims on Tuesdays\n- Paints landscapes\n- Took up pottery")
    assert request.has_answer("pottery, painting, swimming")
    assert not request.has_answer("pottery, painting, swimming, camping")


def test_stop_words_alone_never_make_a_match():
    assert not Request("the and of a").has_answer("the")
    assert not Request("Loves the beach").has_answer("the mountains")


def test_english_plurals_and_tenses_meet_their_stem():
    assert Request("She contacted an adoption agency.").has_answer("adoption agencies")
    assert Request("Goes running every morning").has_answer("runs")


def test_korean_words_are_found_under_their_particles():
    assert Request("지우는 부산에서 살아요").has_answer("부산")
    assert Request("고양이 두부가 자요").has_answer("두부")
    assert not Request("서울에 살아요").has_answer("부산")


@pytest.mark.parametrize(("answer", "low", "high"), [
    ("7 May 2023", date(2023, 5, 7), date(2023, 5, 7)),
    ("The sunday before 25 May 2023", date(2023, 5, 21), date(2023, 5, 21)),
    ("The week before 9 June 2023", date(2023, 5, 27), date(2023, 6, 8)),
    ("two days after 3 March 2024", date(2024, 3, 5), date(2024, 3, 5)),
    ("May 2023", date(2023, 5, 1), date(2023, 5, 31)),
    ("2022", date(2022, 1, 1), date(2022, 12, 31)),
    ("The year before 2023", date(2022, 1, 1), date(2022, 12, 31)),
    ("2024년 3월 14일", date(2024, 3, 14), date(2024, 3, 14)),
    ("A few days before 1 June 2023", date(2023, 5, 27), date(2023, 5, 31)),
])
def test_a_temporal_answer_resolves_to_the_days_it_denotes(answer, low, high):
    assert resolved_range(answer) == (low, high)


def test_an_answer_without_a_date_has_no_range():
    assert resolved_range("yesterday") is None
    assert resolved_range("adoption agencies") is None


def test_the_resolved_date_is_found_only_when_the_request_names_a_day_inside_the_range():
    # Said on 25 May 2023 (a Thursday): 'last Sunday' is 21 May.
    assert Request("- Went to the support group on 2023-05-21").has_resolved_date("The sunday before 25 May 2023")
    assert not Request("- Went to the support group last Sunday (said 25 May 2023)").has_resolved_date(
        "The sunday before 25 May 2023")
    assert Request("Ran it on 28 May 2023").has_resolved_date("May 2023")
    assert not Request("Ran it in May 2023").has_resolved_date("28 May 2023")  # a month is not the day


def test_the_matcher_normalises_the_same_way_for_any_text():
    assert normalise("On 7 May, 2023; May 7 2023.") == "on 2023-05-07 2023-05-07"
