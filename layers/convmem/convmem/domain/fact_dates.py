"""Relative time in what a person says, resolved against when they said it. Pure.

"I went to the support group yesterday", said on 8 May 2023, is remembered as "on 7 May 2023":
the fact stays true when it is recalled months later, and a question about when finds a date.
English and Korean. A day renders as "7 May 2023", a week as "the week before 8 May 2023", a month
as "May 2023", a year as "2023": unambiguous for a reader and for a model in any locale.
"""

from __future__ import annotations

import calendar
import functools
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from convmem.domain import relevance

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY_ABBREVIATIONS = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "weds": "wednesday", "thu": "thursday",
                          "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday"}
_KO_WEEKDAYS = ["월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일"]
_KO_WEEKDAY_FORMS = [*_KO_WEEKDAYS, *(d[0] + "욜" for d in _KO_WEEKDAYS)]  # (chat writes 월욜, 토욜)


def _weekday_number(word: str) -> int:
    """Monday 0 ... Sunday 6 of an English weekday, written out or short ("Tuesday", "tues", "Sat")."""
    word = word.lower()
    return _WEEKDAYS.index(_WEEKDAY_ABBREVIATIONS.get(word, word))


def _ko_weekday(word: str) -> int:
    """Monday 0 ... Sunday 6 of a Korean weekday, written out or as chat writes it (월욜)."""
    return "월화수목금토일".index(word[0])

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "couple of": 2, "a couple of": 2}
# Korean words for a span of days ("이틀 전", "보름 뒤"; 일주일 is a week)
_KO_SPANS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "열흘": 10, "보름": 15, "일주일": 7}
_KO_NUMBERS = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "1": 1, "2": 2, "3": 3}


def day_text(d: date) -> str:
    """7 May 2023."""
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def month_text(year: int, month: int) -> str:
    return f"{_MONTHS[month - 1]} {year}"


def _add_months(d: date, months: int) -> tuple[int, int]:
    index = d.year * 12 + d.month - 1 + months
    return index // 12, index % 12 + 1


@dataclass(frozen=True)
class Resolved:
    """A time expression found in a text: where it is, what it renders as, and its sortable
    value (``2023-05-07``, ``2023-W18``, ``2023-05``, ``2023``)."""

    start: int
    end: int
    text: str
    when: str


def ko_day_text(d: date) -> str:
    """2023년 5월 7일."""
    return f"{d.year}년 {d.month}월 {d.day}일"


def _day(d: date, prep: str = "on ") -> tuple[str, str]:
    return prep + day_text(d), d.isoformat()


def _day_of_week(said: date, weeks: int, weekday: int) -> date:
    """That weekday (Monday 0) of the week ``weeks`` weeks from the one ``said`` is in."""
    return said - timedelta(days=said.weekday()) + timedelta(weeks=weeks, days=weekday)


def _week(said: date, offset: int) -> tuple[str, str]:
    monday = _day_of_week(said, offset, 0)
    iso = monday.isocalendar()
    text = {-1: f"the week before {day_text(said)}", 1: f"the week after {day_text(said)}"}.get(
        offset, f"the week of {day_text(monday)}")
    return text, f"{iso[0]}-W{iso[1]:02d}"


def _month(said: date, offset: int) -> tuple[str, str]:
    y, m = _add_months(said, offset)
    return f"in {month_text(y, m)}", f"{y}-{m:02d}"


def _year(said: date, offset: int) -> tuple[str, str]:
    return f"in {said.year + offset}", str(said.year + offset)


def _weekday(said: date, weekday: int, direction: int) -> date:
    """The nearest such weekday strictly before (direction -1) or after (+1) ``said``."""
    delta = (said.weekday() - weekday) % 7 or 7
    return said - timedelta(days=delta) if direction < 0 else said + timedelta(days=(weekday - said.weekday()) % 7 or 7)


# A superlative or a first before "in 10 years" counts back over them, to no day ("the hottest day in 5 years").
_COUNTS_BACK = re.compile(r"\b(?:(?!(?:harvest|test|rest|interest|contest|nest|chest|forest|vest|west|guest|request|quest|protest"
                          r"|invest|digest|suggest|arrest|attest|honest|modest)\b)[a-z]+est|best|worst|most|least|first(?: time)?"
                          r"|only time|ever)(?:\s+[a-z]+){0,2}\s+$"
                          # ... or none in it ("I haven't been there in two years", "hasn't had a drink in six months")
                          r"|\b(?:haven['\u2019]?t|hasn['\u2019]?t|hadn['\u2019]?t|didn['\u2019]?t|(?:have|has|had|did)\s+not|never|no)\b"
                          r"(?:\s+[\w'\u2019]+){0,5}\s+$",
                          re.IGNORECASE)


def _weekend(said: date, offset: int) -> tuple[str, str]:
    saturday = said + timedelta(days=(5 - said.weekday()) % 7) + timedelta(weeks=offset)
    if offset < 0 and said.weekday() >= 5:
        saturday = said - timedelta(days=said.weekday() - 5) - timedelta(weeks=0 if offset == -1 and said.weekday() == 6 else 1)
    return f"the weekend of {day_text(saturday)}", saturday.isoformat()


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1,
             "첫째": 1, "첫": 1, "둘째": 2, "셋째": 3, "넷째": 4, "마지막": -1}
# The first / third / last week (or weekday) of a month: 다음 달 셋째 주 토요일, "the first Monday of next month",
# "the last week in July".
_KO_NTH = (r"(?P<nmonth>지난\s*달|다음\s*달|이번\s*달|담\s*달|저번\s*달|이달)\s*(?P<nth>첫째|첫|둘째|셋째|넷째|마지막)\s*주"
           r"(?:\s*(?P<nwday>" + "|".join(_KO_WEEKDAY_FORMS) + r"))?|")
_EN_NTH = (r"(?:on\s+)?(?:the\s+)?(?P<nth>first|second|third|fourth|last)\s+(?P<nwday>week|" + "|".join(_WEEKDAYS) + r")\s+"
           r"(?:of|in|o)\s+(?P<nmonth>last month|next month|this month|" + "|".join(_MONTHS) + r")|")  # (Scots write "of" as "o")
# ... and a day of it: "the first of next month", "the 15th of this month"
_EN_DOM = r"(?:on\s+)?(?:the\s+)?(?P<dom>[12]?\d(?:st|nd|rd|th)|30th|31st|first|second|third)\s+of\s+(?P<dmonth>last month|next month|this month)|"
_N = r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|(?:a )?couple of"
_UNIT = r"day|week|wk|month|year|yr"  # texting writes "wk", "yr"
# A part of a day after a weekday, as texting also writes it ("thursday mornin", "tuesday nite").
_DAYPART = r"(?:early\s+|late\s+)?(?:night|nite|mornin[g'\u2019]?|afternoon|evenin[g'\u2019]?|arvo)"
# What a day that is the subject of its past (or of what is set for it) is followed by ("friday was my last shift")
_DAY_IS_SUBJECT_OF = r"(?:was|wis|will\s+be)"
# Tomorrow as texting and spelling by ear write it ("tmrw", "2moro", "tommorow", Scouse "tomoz").
_TOMORROW = r"tomorrow|tmrw|tmr|tmw|2mrw|2mor+o+w?|tom+or+o+w?|tomoz|2moz"
_EN = re.compile(
    r"\b(?:" + _EN_NTH + _EN_DOM + r"(?P<dby>(?:the )?day before yesterday|(?-i:juzi))"
    r"|(?P<after>(?:the )?day after (?:" + _TOMORROW + r")|(?-i:kesho\s+kutwa))"
    # (and in Swahili, as Kenyan and Tanzanian English text it, small: jana, juzi, kesho; not the name Jana)
    r"|(?P<yesterday>yesterday|yday|yesturday|yesterdy|yestday|ystday|yesteday|yisterday|yistiddy|yestiddy|last night|last nite|(?-i:jana|ytd))"  # (not "YTD", the year so far)
    # "a week tomorrow", "three weeks today", "a fortnight on Saturday", American "three weeks from
    # tomorrow", "a week from Tuesday", "two weeks from now": weeks from a day; Scots "a fortnight the day",
    # "a week the morra" (today, tomorrow), Yorkshire "week on Thursday" (not a week by its name: "Matilda for Book Week on friday")
    r"|(?:(?P<wk_n>" + _N + r")\s+(?:weeks?|wks?)|(?P<fortnight>a\s+fortnight)|(?<!last\s)(?<!this\s)(?<!next\s)(?<!that\s)(?<!the\s)(?<!per\s)(?<!each\s)(?<!every\s)(?<!a\s)(?:(?-i:week)|(?<![\w,]\s)(?-i:Week))(?=\s+on\s))\s+(?P<wk_from>(?:from\s+)?(?:today|tonight|" + _TOMORROW + r")|the morra|the day(?!\s+(?:before|after|of|that|when)\b)|from\s+the day(?!\s+(?:before|after|of|that|when|i|we|he|she|they|you)\b)"
    r"|from\s+now|(?:from\s+|on\s+)?(?:this\s+)?(?P<wk_day>" + "|".join(_WEEKDAYS) + r"))"
    # ... and back ("a week ago Sunday": the Sunday before last; "two weeks ago today", "four years
    # ago yesterday": to the day)
    # ... and by the weekday counted back ("took it two saturdays ago": the Saturday before last)
    r"|(?P<wdago_n>" + _N + r")\s+(?P<wdago_day>" + "|".join(_WEEKDAYS) + r")s\s+ago\b"
    r"|(?P<ago_n>" + _N + r")\s+(?:(?:weeks?|wks?)\s+ago\s+(?P<ago_day>" + "|".join(_WEEKDAYS) + r")"
    r"|(?P<ago_unit>" + _UNIT + r")s?\s+ago\s+(?P<ago_from>today|yesterday))"
    # ... and the day first ("Tuesday week", "Thursday fortnight": a week or two after the coming one)
    r"|(?<!every\s)(?<!each\s)(?P<day_wk>" + "|".join(_WEEKDAYS) + r"|(?-i:Sat|Sun|Mon|Tues?|Wed|Thurs?|Fri))\s+(?P<day_wk_n>week|fortnight)"  # (and "Sat week")
    r"(?!\s+(?:\d|ago|later|before|after|of|in|out)\b)"
    r"|(?P<today>today|tonight|tonite|2nite|2night|this (?:morning|afternoon|evening|arvo))"
    r"|(?P<tomorrow>" + _TOMORROW + r"|the morra|(?-i:kesho)(?!\s+kutwa))|(?P<n>" + _N + r")\s+(?P<unit>" + _UNIT + r")s?\s+ago"
    # ... and as Romanian, Italian and Indian English say "ago": "from before two days", "I came before 3 weeks"
    r"|(?<=\bfrom\s)before\s+(?P<before_n>" + _N + r")\s+(?P<before_unit>" + _UNIT + r")s?\b"
    # (not "in a week Monday": that Monday, a week on, below)
    r"|\bin\s+(?P<in_n>" + _N + r")\s+(?:more\s+)?(?P<in_unit>" + _UNIT + r")s?(?!\s+(?:or|ago|(?:on\s+)?(?:" + "|".join(_WEEKDAYS) + r"))\b)"
    # ... and counted down ("9 days more then I fly", "3 more weeks till the wedding"): as many ahead
    r"|(?<!\bfor\s)(?P<more_n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:more\s+(?P<more_unit>" + _UNIT + r")s?|(?P<more_unit2>"
    + _UNIT + r")s?\s+more)(?=\s+(?:then|till|til|until|b4|before|to go)\b)"
    # "next May", "last september": the nearest such month after (before) the one it was said in
    # (not "the next may be harder")
    r"|(?<!the\s)(?P<mrel>last|next)\s+(?P<mname>" + "|".join(_MONTHS) + r")(?!\s+\d)"
    # "Tuesday after next", "the week after next": not the coming one, the one after it
    r"|(?:the\s+)?(?P<after_next>week|weekend|" + "|".join(_WEEKDAYS) + "|" + "|".join(_WEEKDAY_ABBREVIATIONS) + r")\s+after\s+next"
    # ... as Singapore and Malaysia say it: "next next week"
    r"|(?<!the\s)next\s+next\s+(?P<next_next>week|weekend|month|year|" + "|".join(_WEEKDAYS) + r")"
    # "end of the month", "end month" (a deadline: its last day)
    # (not one that comes every month: "5,000 every end month")
    r"|(?<!\bevery\s)(?<!\beach\s)(?P<month_end>(?:the\s+)?end\s+(?:of\s+)?(?:the\s+|this\s+)?month)\b(?!s)"
    # "last week Thursday", "next week Tuesday" (South African, Irish): that day of that week
    r"|(?P<wkrel>last|next|this)\s+week\s+(?P<wkday>" + "|".join(_WEEKDAYS) + r")"
    # ... and the day first ("Thursday last week", "Tuesday next week", "Saturday this week")
    r"|(?:the\s+)?(?P<wkday_first>" + "|".join(_WEEKDAYS) + r")\s+(?:of\s+)?(?P<wkrel_after>last|next|this)\s+week\b"  # (and "wednesday of next week")
    # "last Tuesday but one" (British): the one before the last
    r"|last\s+(?P<but_one>" + "|".join(_WEEKDAYS) + r")\s+but\s+one\b"
    # "Thursday gone", "friday just gone" (Irish, British): the last one
    # (and its night: "Thursday night gone"; not "gone in to work", but "gone in Bridgetown")
    r"|(?P<gone>" + "|".join(_WEEKDAYS) + r")\s+(?:(?:(?:" + _DAYPART + r")\s+)?(?:just\s+)?gone\b"
    r"(?!\s+(?:to|by|from|out|off|through|over|up|down|into|for)\b)(?!\s+in\b(?!\s+[A-Z]))"
    # ... and "Saturday last" (Appalachian, Irish, older British), not "Saturday last week" nor "Sunday last time"
    r"|last\b(?!\s+(?:week|wk|month|year|time|night|nite|of|one|minute|min|thing|bit|few|two|three|couple)\b)"
    # ... and Irish "Saturday there", the one just past ("got it Saturday there from a garage in Lisburn")
    r"|there\b(?!\s+(?:is|are|was|were|will|and)\b))"
    # ... and "Thursday coming", "this Wednesday coming" (Irish, Cajun, West African): the next one
    r"|(?:(?:this|the|on)\s+)?(?P<coming>" + "|".join(_WEEKDAYS) + r")\s+(?:coming|first(?=[\s,.!?;:]*$|[,.!?;:]|\s+(?!(?:thing|try|time|go|attempt|shot|round|place|prize|half)\b)))\b(?!\s+(?:to|by|from|out|off|through|over|down|in|into|for|back|home|here|there|with)\b)"
    r"|(?P<rel>last|next|this past|this coming|this)\s+(?P<period>week|wk|month|year|weekend|"
    + "|".join(_WEEKDAYS) + "|" + "|".join(_WEEKDAY_ABBREVIATIONS) + r")\.?)\b",
    re.IGNORECASE,
)
# (the week, month or weekend after next, or before last: "다다음 주 목요일", "지지난 달"; and as chat
# writes next and last: "담주 목욜", "담달", "저번주")
_KO_REL = r"다다음|다음\s*다음|지지난|지난\s*지난|지난|다음|이번|(?<![가-힣])다?담(?=\s*(?:주|달))|저번|(?<![가-힣])이(?=달)"
# (not 내일 that names a programme for young people's tomorrow: 내일배움카드, 청년내일채움공제, 장병내일준비적금)
_KO = re.compile(
    _KO_NTH + r"(?P<dbb>그끄저께|그끄제)|(?P<dby>그저께|(?<!엊)그제)|(?P<yesterday>어제|어젯밤)|(?P<today>오늘)|(?P<tomorrow>내일(?!배움|채움|준비적금))|(?P<after>(?:낼\s*)?모레)|(?P<after3>(?<![가-힣])글피)"
    # "2주 뒤 토요일": that weekday of the week so many weeks on (or back), not the day 14 days on
    r"|(?P<wn>\d+|한|두|세|네|다섯)\s*주\s*(?P<wago>전|뒤|후)\s*(?P<wnday>" + "|".join(_KO_WEEKDAY_FORMS) + r")"
    # "3일 전", "두 달 뒤", "보름 후", "이틀 전에": a count of days, weeks, months or years before or after
    r"|(?:(?P<n>\d+|한|두|세|네|다섯|여섯|일곱)\s*(?P<unit>일|주|주일|달|개월|년)|(?P<span>" + "|".join(_KO_SPANS) + r"))"
    # (일주일 뒤로 옮겨: a shift, no date; 20일 전역, 3일 후기: a word that starts with it, no count back)
    r"\s*(?P<ago>전|뒤|후)(?!로\s*(?:옮기|옮겨|옮겼|미루|미뤄|미뤘|미룬|연기|밀))(?=[에엔부까쯤이인께로라래다야예요]|[^가-힣]|$)"
    # (after a week chat writes a weekday by its first syllable, "이번주 금 저녁에", "담주 화에", where nothing
    # else is meant: not 일, which is work, nor "다음주 목 아파서")
    r"|(?P<wrel>" + _KO_REL + r")\s*주\s*(?P<wday>" + "|".join(_KO_WEEKDAY_FORMS)
    + r"|[월화수목금토](?=에|부터|까지|\s*(?:저녁|아침|점심|밤|오전|오후|낮|새벽)|[.,!?~ㅋㅎ]|\s*$))"
    # ("지난 주일": the Sunday, as churchgoers call it; not 주 with 일 left over)
    r"|(?P<rel>" + _KO_REL + r")\s*(?P<period>주일(?=에|부터|날|예배|[\s.,!?~]|$)|주말|주(?!일)|달|해|"
    + "|".join(_KO_WEEKDAY_FORMS) + r")|(?P<lastyear>작년|지난해)|(?P<nextyear>내년)|(?P<lastmonth>지난달)|(?P<nextmonth>다음달)"
)
_KO_DIRECTIONS = {"지난": -1, "다음": 1, "이번": 0, "다다음": 2, "다음다음": 2, "지지난": -2, "지난지난": -2, "담": 1, "다담": 2,
                  "저번": -1, "이": 0}
_KO_PERIODS = {"주": "week", "달": "month", "해": "year", "주말": "weekend"}


def _nth(said: date, month: str, nth: str, weekday: str | None) -> tuple[str, str] | None:
    """The ``nth`` week, or weekday, of the month ``month`` (-1, 0, 1) months from ``said``, or of the
    month it names, the nearest by that name ("the last week in July")."""
    named = month.capitalize() in _MONTHS
    if named:
        m = _MONTHS.index(month.capitalize()) + 1
        y = said.year + (1 if m - said.month < -6 else -1 if m - said.month > 6 else 0)
    else:
        y, m = _add_months(said, -1 if month.startswith(("last", "지난", "저번")) else 1 if month.startswith(("next", "다음", "담")) else 0)
    first = date(y, m, 1)
    last = date(*_add_months(first, 1), 1) - timedelta(days=1)
    n = _ORDINALS[nth]
    if weekday in (None, "week"):
        day = first + timedelta(weeks=n - 1) if n > 0 else last
        monday = day - timedelta(days=day.weekday())
        iso = monday.isocalendar()
        # (a month named keeps its name: "the last week in July" is the last week of July 2025)
        return (f"the {nth} week of {_MONTHS[m - 1]} {y}" if named else f"the week of {day_text(monday)}"), f"{iso[0]}-W{iso[1]:02d}"
    wd = _ko_weekday(weekday) if weekday in _KO_WEEKDAY_FORMS else _WEEKDAYS.index(weekday)
    d = _nth_weekday(y, m, wd, n)
    return _day(d) if d.month == m else None


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The ``n``-th ``weekday`` (0: Monday) of the month, or its last when ``n`` is below 1 (a fifth may
    fall in the next month: the caller checks)."""
    first = date(year, month, 1)
    if n > 0:
        return first + timedelta(days=(weekday - first.weekday()) % 7, weeks=n - 1)
    last = date(*_add_months(first, 1), 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _resolve_en(m: re.Match[str], said: date) -> tuple[str, str] | None:
    if m["nth"]:
        return _nth(said, m["nmonth"].lower(), m["nth"].lower(), m["nwday"].lower())
    if m["dom"]:
        y, mo = _add_months(said, {"last": -1, "next": 1, "this": 0}[m["dmonth"].split()[0].lower()])
        n = _ORDINALS.get(m["dom"].lower()) or int(re.sub(r"\D", "", m["dom"]))
        return _day(date(y, mo, n)) if n <= calendar.monthrange(y, mo)[1] else None
    if m["wk_from"]:
        start = m["wk_from"].lower()
        base = (_weekday(said, _weekday_number(m["wk_day"]), 1) if m["wk_day"]
                else said + timedelta(days=0 if start.endswith(("today", "tonight", "now", "day")) else 1))
        return _day(base + timedelta(weeks=2 if m["fortnight"] else _counted(m["wk_n"] or "a", "week", 1)[1]))
    if m["wdago_day"]:
        last = _weekday(said, _weekday_number(m["wdago_day"]), -1)
        return _day(last - timedelta(weeks=_counted(m["wdago_n"], "week", 1)[1] - 1))
    if m["ago_day"]:  # (said on that weekday, "two weeks ago Sunday" is two weeks ago to the day)
        wanted = _weekday_number(m["ago_day"])
        last = said if said.weekday() == wanted else _weekday(said, wanted, -1)
        return _day(last - timedelta(weeks=_counted(m["ago_n"], "week", 1)[1]))
    if m["ago_from"]:
        base = said - timedelta(days=0 if m["ago_from"].lower() == "today" else 1)
        unit, n = _counted(m["ago_n"], m["ago_unit"], 1)
        if unit in ("month", "year"):  # the same day of that month (or the month's last, 31 March - 1 month)
            y, mo = _add_months(base, -n * (12 if unit == "year" else 1))
            return _day(date(y, mo, min(base.day, calendar.monthrange(y, mo)[1])))
        return _day(base - timedelta(days=n * (7 if unit == "week" else 1)))
    if m["day_wk"]:
        weeks = 2 if m["day_wk_n"].lower() == "fortnight" else 1
        d = _weekday(said, _weekday_number(m["day_wk"]), 1) + timedelta(weeks=weeks)
        return f"on {_WEEKDAYS[_weekday_number(m['day_wk'])].capitalize()} {day_text(d)}", d.isoformat()
    if m["dby"]:
        return _day(said - timedelta(days=2))
    if m["after"]:
        return _day(said + timedelta(days=2))
    if m["yesterday"]:
        return _day(said - timedelta(days=1))
    if m["today"]:
        return _day(said)
    if m["tomorrow"]:
        return _day(said + timedelta(days=1))
    if m["unit"] or m["before_unit"]:
        return _offset(said, *_counted(m["n"] or m["before_n"], m["unit"] or m["before_unit"], -1))
    if m["in_unit"]:  # "moving in 2 wks": ahead of when it was said
        if _COUNTS_BACK.search(m.string, 0, m.start()):
            return None  # (the span it counts back over: "lowest in 10 year", "first time in 3 years")
        return _offset(said, *_counted(m["in_n"], m["in_unit"], 1))
    if m["more_n"]:
        if _past_at(m.string, _clause(m.string, m.start(), m.end())[0], m.start()):
            return None  # (how long it went on: "we stayed 2 more days then drove home")
        return _offset(said, *_counted(m["more_n"], m["more_unit"] or m["more_unit2"], 1))
    if m["mname"]:
        month = month_number(m["mname"])
        year = said.year + (1 if m["mrel"].lower() == "next" and month <= said.month else
                            -1 if m["mrel"].lower() == "last" and month >= said.month else 0)
        return f"in {month_text(year, month)}", f"{year}-{month:02d}"
    if m["wkday"] or m["wkday_first"]:
        day, rel = (m["wkday"], m["wkrel"]) if m["wkday"] else (m["wkday_first"], m["wkrel_after"])
        d = _day_of_week(said, {"last": -1, "next": 1, "this": 0}[rel.lower()], _weekday_number(day))
        if (rel.lower() == "this" and said.weekday() == 6 and d < said
                and not _past_at(m.string, *_clause(m.string, m.start(), m.end()))):
            # (said on a Sunday, "this week" is the one it begins, as a calendar that starts on Sunday
            # has it: "interview's thursday this week. nervous as"; not one told in the past)
            d += timedelta(weeks=1)
        return f"on {day.capitalize()} {day_text(d)}", d.isoformat()
    if m["but_one"]:
        d = _weekday(said, _weekday_number(m["but_one"]), -1) - timedelta(weeks=1)
        return f"on {m['but_one'].capitalize()} {day_text(d)}", d.isoformat()
    if m["gone"] or m["coming"]:
        day = m["gone"] or m["coming"]
        d = _weekday(said, _weekday_number(day), -1 if m["gone"] else 1)
        return f"on {day.capitalize()} {day_text(d)}", d.isoformat()
    if m["month_end"]:
        last = date(said.year, said.month, calendar.monthrange(said.year, said.month)[1])
        return f"the end of {month_text(said.year, said.month)} ({day_text(last)})", last.isoformat()
    if m["after_next"] or m["next_next"]:
        period = (m["after_next"] or m["next_next"]).lower()
        period = _WEEKDAY_ABBREVIATIONS.get(period, period)  # ("sat after next")
        if period in _WEEKDAYS:
            d = _weekday(said, _WEEKDAYS.index(period), 1) + timedelta(weeks=1)
            return f"on {period.capitalize()} {day_text(d)}", d.isoformat()
        return _period(said, period, 2)
    rel, period = m["rel"].lower(), m["period"].lower()
    period = _WEEKDAY_ABBREVIATIONS.get(period, _UNITS.get(period, period))
    direction = 1 if rel in ("next", "this coming") else -1 if rel in ("last", "this past") else 0
    if period in _WEEKDAYS:
        if direction == 0:
            return None  # "this Friday": past or coming, the sentence's tense decides (_EN_PARTIAL)
        d = _weekday(said, _WEEKDAYS.index(period), direction)
        return f"on {period.capitalize()} {day_text(d)}", d.isoformat()
    return _period(said, period, direction)


_UNITS = {"wk": "week", "yr": "year"}


def _counted(number: str, unit: str, direction: int) -> tuple[str, int]:
    """("two", "wks", -1) -> ("week", -2): an English count of units, before (-1) or after (1)."""
    raw, unit = number.lower(), unit.lower()
    return _UNITS.get(unit, unit), direction * (int(raw) if raw.isdigit() else _NUMBERS.get(raw, 2))


def _offset(said: date, unit: str, n: int) -> tuple[str, str]:
    if unit in ("day", "일"):
        return _day(said + timedelta(days=n))
    if unit in ("week", "주"):
        return _week(said, n) if abs(n) == 1 else _day(said + timedelta(weeks=n), "around ")
    if unit in ("month", "달", "개월"):
        return _month(said, n)
    return _year(said, n)


def _period(said: date, period: str, direction: int) -> tuple[str, str]:
    if period == "weekend":
        return _weekend(said, direction)
    if period == "week":
        return _week(said, direction)
    if period == "month":
        return _month(said, direction)
    return _year(said, direction)


def _resolve_ko(m: re.Match[str], said: date) -> tuple[str, str] | None:
    found = _resolve_ko_en(m, said)
    if found is None:
        return None
    text, when = found
    return _ko_text(when, said), when


def when_span(when: str) -> tuple[date, date]:
    """The first and last day of what a resolved value names: a day (2023-05-07), an ISO week
    (2023-W19), a month (2023-05) or a year (2023)."""
    if "-W" in when:
        year, week = when.split("-W")
        return date.fromisocalendar(int(year), int(week), 1), date.fromisocalendar(int(year), int(week), 7)
    parts = [int(p) for p in when.split("-")]
    if len(parts) == 3:
        return date(*parts), date(*parts)
    if len(parts) == 2:
        return date(parts[0], parts[1], 1), date(parts[0], parts[1], calendar.monthrange(parts[0], parts[1])[1])
    return date(parts[0], 1, 1), date(parts[0], 12, 31)


def _ko_text(when: str, said: date) -> str:
    """The Korean form of a resolved value: 2023년 5월 7일, 2023년 5월 8일 전 주, 2023년 4월, 2022년."""
    first, _ = when_span(when)
    if "-W" in when:
        return f"{ko_day_text(first)}부터 한 주"
    if len(when) == 10:
        return ko_day_text(first)
    return f"{first.year}년 {first.month}월" if len(when) == 7 else f"{first.year}년"


def _ko_count(raw: str) -> int:
    """A Korean count in figures or words ("3", "두")."""
    return int(raw) if raw.isdigit() else _KO_NUMBERS.get(raw, 1)


def _resolve_ko_en(m: re.Match[str], said: date) -> tuple[str, str] | None:
    if m["nth"]:
        return _nth(said, m["nmonth"], m["nth"], m["nwday"])
    if m["dbb"]:
        return _day(said - timedelta(days=3))
    if m["dby"]:
        return _day(said - timedelta(days=2))
    if m["yesterday"]:
        return _day(said - timedelta(days=1))
    if m["today"]:
        return _day(said)
    if m["tomorrow"]:
        return _day(said + timedelta(days=1))
    if m["after"]:
        return _day(said + timedelta(days=2))
    if m["after3"]:  # (글피: the day after 모레)
        return _day(said + timedelta(days=3))
    if m["lastyear"] or m["nextyear"]:
        return _year(said, -1 if m["lastyear"] else 1)
    if m["lastmonth"] or m["nextmonth"]:
        return _month(said, -1 if m["lastmonth"] else 1)
    if m["wago"]:
        n = _ko_count(m["wn"])
        return _day(_day_of_week(said, -n if m["wago"] == "전" else n, _ko_weekday(m["wnday"])))
    if m["ago"]:
        direction = -1 if m["ago"] == "전" else 1
        if m["span"]:
            days = _KO_SPANS[m["span"]]
            return _offset(said, "주", direction) if days == 7 else _day(said + timedelta(days=direction * days))
        return _offset(said, "주" if m["unit"] == "주일" else m["unit"], direction * _ko_count(m["n"]))
    if m["wday"]:  # 다음 주 목요일: the Thursday of next week, not the next Thursday
        return _day(_day_of_week(said, _KO_DIRECTIONS[re.sub(r"\s", "", m["wrel"])], _ko_weekday(m["wday"])))
    direction = _KO_DIRECTIONS[re.sub(r"\s", "", m["rel"])]
    period = m["period"]
    if period == "주일":
        return _day(_day_of_week(said, direction, 6))
    if period in _KO_WEEKDAY_FORMS:
        if direction not in (-1, 1):
            return None
        d = _weekday(said, _ko_weekday(period), direction)
        return f"on {period} {day_text(d)}", d.isoformat()
    return _period(said, _KO_PERIODS[period], direction)


# A date that leaves out what the listener can infer: the year ("on 21 December", "in August",
# "12월 21일") or the week ("on Thursday"). Which one is meant follows from the tense: what was
# done lies before the day it was said, what is planned after it.
_MONTH_NAMES = "|".join(_MONTHS)
# The dates resolution writes into a statement (``day_text``, ``month_text``, ``ko_day_text``, ISO):
# "on Tuesday 15 April 2025", "in March 2025", "2025년 3월 3일", "2025-03-03".
WRITTEN = re.compile(r"\b(?:\d{1,2} )?(?:" + _MONTH_NAMES + r") \d{4}\b|\d{4}년(?:\s*\d{1,2}월)?(?:\s*\d{1,2}일)?|\b\d{4}-\d{2}-\d{2}\b")
_WEEKDAY_NAMES = "|".join([*(w.capitalize() for w in _WEEKDAYS), *_WEEKDAYS])
# Next to a day, texting writes it small ("4th november") or short ("feb 18", "Sept 3rd").
_MONTH_SHORT = [*(m[:3] for m in _MONTHS if m != "May"), "Sept"]
_MONTH_BY_DAY = "|".join([*_MONTHS, *(m.lower() for m in _MONTHS)]) + (
    r"|(?:" + "|".join([*_MONTH_SHORT, *(m.lower() for m in _MONTH_SHORT)]) + r")\.?(?![a-z])")


def month_number(name: str) -> int:
    """The month (1-12) a name or its short form names ("February", "feb", "Sept.")."""
    return [m[:3] for m in _MONTHS].index(name[:3].capitalize()) + 1


_NOT_BEFORE_BARE_DAY = ("every", "each", "the", "a", "an", "other", "good", "black", "cyber", "easter", "to", "from", "until",
                        "till", "by", "before", "after", "next", "last", "and", "or",
                        # (nor one of a month's, "the first Friday in May", nor one of many, "sometimes Sunday too")
                        "first", "second", "third", "fourth", "fifth", "sometimes", "usually", "often", "most", "some", "any",
                        # (nor the last of a list of days, which come every week: "dialysis Monday Wednesday Friday")
                        *_WEEKDAYS, *(f"{w}," for w in _WEEKDAYS))
# (a weekday said bare is none right after one of them: the lookbehinds both bare forms share)
_NOT_AFTER = "(?<!" + ")(?<!".join(rf"\b{v}\s" for w in _NOT_BEFORE_BARE_DAY for v in (w, w.capitalize())) + ")"
# Holidays by name: a day of the year (Easter's moves), past or coming as the tense decides.
_HOLIDAYS = {"christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "xmas": (12, 25),
             "boxing day": (12, 26), "new year's eve": (12, 31), "new years eve": (12, 31), "hogmanay": (12, 31),
             "new year's day": (1, 1), "new years day": (1, 1),
             # (as said for the day, "tuesday after new years"; not "the new year", a year to come)
             "new year's": (1, 1), "new years": (1, 1), "valentine's day": (2, 14), "valentines day": (2, 14),
             "halloween": (10, 31), "good friday": (-2, 0), "easter sunday": (0, 0), "easter": (0, 0), "easter monday": (1, 0),
             # national days on a fixed date, as the English-speaking world names them
             "st patrick's day": (3, 17), "st patricks day": (3, 17), "paddy's day": (3, 17), "paddys day": (3, 17),
             "waitangi day": (2, 6), "anzac day": (4, 25), "australia day": (1, 26), "canada day": (7, 1),
             "independence day": (7, 4), "the fourth of july": (7, 4), "fourth of july": (7, 4), "juneteenth": (6, 19),
             "bonfire night": (11, 5), "guy fawkes night": (11, 5),
             "remembrance day": (11, 11), "veterans day": (11, 11), "veterans' day": (11, 11),
             "human rights day": (3, 21), "freedom day": (4, 27), "youth day": (6, 16), "women's day": (8, 9),
             "heritage day": (9, 24), "day of reconciliation": (12, 16),
             "madaraka day": (6, 1), "madaraka": (6, 1), "mashujaa day": (10, 20), "mashujaa": (10, 20),
             "jamhuri day": (12, 12), "jamhuri": (12, 12)}
# ... and American ones on a weekday of their month: the nth (a 4th Thursday), or the last (-1)
_WEEKDAY_HOLIDAYS = {"thanksgiving": (11, 3, 4), "memorial day": (5, 0, -1), "labor day": (9, 0, 1),
                     "father's day": (6, 6, 3), "fathers day": (6, 6, 3)}
# ... and England's bank holiday Mondays, any of four a year (Easter Monday, the first and last Mondays of May,
# the last of August): "starts bank holiday monday" is the next of them, "bank holiday monday we had a bbq" the last
_BANK_HOLIDAY_MONDAYS = ("bank holiday monday", "bank holiday mon")
_HOLIDAY_NAMES = "|".join(sorted([*_HOLIDAYS, *_WEEKDAY_HOLIDAYS, *_BANK_HOLIDAY_MONDAYS], key=len, reverse=True))
_KO_HOLIDAYS = {"삼일절": (3, 1), "어린이날": (5, 5), "어버이날": (5, 8), "스승의 날": (5, 15), "스승의날": (5, 15), "현충일": (6, 6),
                "제헌절": (7, 17), "광복절": (8, 15), "개천절": (10, 3), "한글날": (10, 9), "크리스마스": (12, 25),
                "성탄절": (12, 25), "크리스마스이브": (12, 24), "크리스마스 이브": (12, 24)}
# ... and the two on the lunar calendar, whose day moves: 설날 (the lunar new year) and 추석, 2000-2050
# (MMDD by year from 2000, converted once by the KARI standard, the korean-lunar-calendar package).
_LUNAR_FIRST_YEAR = 2000
_SEOLLAL = ("0205 0124 0212 0201 0122 0209 0129 0218 0207 0126 0214 0203 0123 0210 0131 0219 0208 0128 0216 0205 0125 "
            "0212 0201 0122 0210 0129 0217 0207 0127 0213 0203 0123 0211 0131 0219 0208 0128 0215 0204 0124 0212 0201 "
            "0122 0210 0130 0217 0206 0126 0214 0202 0123").split()
_CHUSEOK = ("0912 1001 0921 0911 0928 0918 1006 0925 0914 1003 0922 0912 0930 0919 0908 0927 0915 1004 0924 0913 1001 "
            "0921 0910 0929 0917 1006 0925 0915 1003 0922 0912 1001 0919 0908 0927 0916 1004 0924 0913 1002 0921 0910 "
            "0928 0917 1005 0925 0915 1004 0922 0911 0930").split()
_KO_LUNAR = {"설날": _SEOLLAL, "구정": _SEOLLAL, "설": _SEOLLAL, "추석": _CHUSEOK, "한가위": _CHUSEOK,
             "정월 대보름": _SEOLLAL, "정월대보름": _SEOLLAL, "대보름": _SEOLLAL}
_DAYS_AFTER_SEOLLAL = {"정월 대보름": 14, "정월대보름": 14, "대보름": 14}  # (the first full moon: the 15th of the first month)
# The day before or after one ("추석 담날 대청호 갈라고", "설 전날"), and the day itself.
_KO_HOLIDAY_SIDES = {"전날": -1, "전 날": -1, "담날": 1, "다음날": 1, "다음 날": 1, "뒷날": 1, "당일": 0}


def _lunar_days(name: str, said: date) -> tuple[date | None, date | None]:
    """The lunar holiday ``name`` gone by before ``said`` and the one to come (None outside the table)."""
    days = []
    for year in (said.year - 1, said.year, said.year + 1):
        if 0 <= year - _LUNAR_FIRST_YEAR < len(_KO_LUNAR[name]):
            mmdd = _KO_LUNAR[name][year - _LUNAR_FIRST_YEAR]
            days.append(date(year, int(mmdd[:2]), int(mmdd[2:])) + timedelta(days=_DAYS_AFTER_SEOLLAL.get(name, 0)))
    return (max((d for d in days if d <= said), default=None), min((d for d in days if d >= said), default=None))


EMOJI = r"[\u2600-\u27bf\U0001f300-\U0001faff]"  # (texting ends a sentence or a clause with one)
# The hour of a day, as texting and work write it: "3:30", "17:45", "6am", "@ 16:30", and a 24-hour
# clock without its colon ("0930", "2200", "1400 hrs"): a four-figure hour no year could be (0000-1859,
# 2100-2359), or any with "hrs" after it ("1900 hrs"), so "wednesday, 2017 wan" keeps its car's year.
_HOUR_4 = r"(?:0\d|1[0-8]|2[1-3])[0-5]\d\b"
_CLOCK = (r"(?:@\s*)?(?:\d{1,2}(?::\d{2}(?:\s*(?:am|pm))?|\s*(?:am|pm))\b"
          r"|(?:[01]\d|2[0-3])[0-5]\d\s*(?:hrs|hours|h)\b|" + _HOUR_4 + ")")
# ... or the meal or the work it came after or before ("tuesday after lunch dad was on the loader", "Friday after work I went")
_MEALTIME = r"(?:after|before|at)\s+(?:breakfast|lunch|dinner|supper|tea|brunch|noon|work|school|church|mass|class|practice)"
# An arrow after a day leads on to what happened then ("thursday -> broke her left wrist")
_ARROW = r"\s*(?:->|\u2192|=>)"
# ... and what may follow a day it dates, its hour or such an arrow ("dentist tues 3pm", "thursday -> broke")
_HOUR_OR_ARROW = r"\s+" + _CLOCK + "|" + _ARROW
# (not a greeting, "Happy Easter", nor a likeness, "Mossy will think it's Christmas")
# ("the Friday before Christmas", "the Sunday after Easter": that weekday next to it; "the day after
# Boxing Day": the day next to it)
_HOLIDAY = (r"(?<![Hh]appy\s)(?<![Mm]erry\s)(?<!it's\s)(?<!like\s)(?<![Hh]arvest\s)"  # (a church's harvest thanksgiving)
            r"(?:(?:(?i:the)\s+)?(?P<hwd>(?i:day|" + "|".join(_WEEKDAYS) + r"))\s+(?P<hside>(?i:before|after))\s+)?"
            r"(?P<hrel>(?i:last|this|next)\s+)?(?P<hol>(?i:" + _HOLIDAY_NAMES
            # (not what is named for it: "christmas tree", "the easter holidays", "the work christmas do")
            + r"))\b(?!\s+(?i:tree|card|present|jumper|light|market|shopping|list|song|music|film|movie|decoration|egg|bunny|"
            r"hunt|break|holiday|hol|term|party|parties|do|pudding|cake|bonus|sale|rush|week|resolution|honours|honors)(?:s)?\b)"
            r"(?!\s+(?i:in|on)\s+(?i:october|oct)\b)")  # (Canada's Thanksgiving, "for thanksgiving in october": not the American one)
_EN_PARTIAL = re.compile(
    _HOLIDAY + r"|"
    # "prom is the 26th", "on the 14th": a day of this month or the next (the last), as the tense says
    r"(?:\b(?P<dlead>(?:[Oo]n|[Bb]y|[Ii]s|[Ww]as|[Uu]ntil|[Tt]ill|[Ff]rom|[Ss]ince|[Tt]o|[Ff]or|(?i:wait|I mean),?|(?:" + _WEEKDAY_NAMES + r"),?)\s+)"
    # ... and one said bare after what it dates, ending its clause ("i start modified duties the 17th.",
    # "flying back the 16th", "the 28th to the 2nd"): not an ordinal of something ("the 4th year")
    r"|(?<=[A-Za-z,]\s)(?=the\s+\d{1,2}(?:st|nd|rd|th)(?:[.,!?;:)~]|\s*$|\s+(?:to|till|til|until|and|at|if|when|so|lol"
    r"|haha|through|thru|[-\u2013])(?:\s|$))))"
    # (the "the" left out after on, by or a weekday, as texting and learners of English do:
    # "Final order come in post on 20th", "Pick up was Saturday 19th")
    r"(?P<dn>(?:the\s+|(?<=[Oo]n\s)|(?<=[Bb]y\s)|(?<=day\s)|(?<=day,\s))\d{1,2}(?:st|nd|rd|th))\b"
    r"(?!\s+(?:of\s+)?(?:" + _MONTH_BY_DAY + r"|century|centuries|birthday|anniversary|floor|time|place|row|hole|minute|team|grade|round|level|page|step)\b)|"
    r"\b(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m1>" + _MONTH_BY_DAY + r")"
    r"|(?P<m2>" + _MONTH_BY_DAY + r")\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b"
    r"|(?P<m4>" + _MONTH_BY_DAY + r")\s+the\s+(?P<d4>\d{1,2})(?:st|nd|rd|th)\b"  # ("june the 9th")
    # (opening the sentence too, and the month a change holds from: "In June she starts", "from June she start at Haarwerk")
    r"|(?P<lead>[Ii]n|[Ee]arly|[Ll]ate|[Mm]id|[Mm]id-|[Ss]ince|[Uu]ntil|[Bb]y|[Ss]tarting|[Ff]rom)\s+(?P<m3>" + _MONTH_NAMES.replace("May|", "") + r"|May(?=\s*[.,!;]|$))"
    # "on Tuesday", "this Saturday", and a day a copula names ("results day was thursday", "the
    # party is Saturday"): coming or gone, as "on Saturday" is, the tense decides (not "Friday's")
    r"|(?P<on>[Oo]n\s+|[Tt]his\s+|(?<=\bwas\s)|(?<=\bwis\s)|(?<=\bis\s)|(?<=\bwere\s)|(?<=\bare\s)"
    # ... and the day a change holds from ("from Friday I am second engineer"; not a span, "from Monday to Friday")
    r"|(?<=\b[Ff]rom\s)(?!(?:" + _WEEKDAY_NAMES + r")\w*\s*(?:to|till|til|until|through|thru|-|\u2013)\s)"
    # ... and one that corrects the day said before it ("Sunday, no wait, Saturday")
    r"|(?<=\bwait,\s)|(?<=\bwait\s)|(?<=\bmean,\s)|(?<=\bmean\s)"
    # ... and one said bare after a verb's object ("got an offer on the house Friday", "fell in her
    # room Tuesday night", "going up there Friday."): not after a word that makes it some other
    # day ("every", "the", "a", "other", Good, Easter) or a span ("monday to friday")
    r"|(?<=[A-Za-z0-9]\s)" + _NOT_AFTER +  # (or a number: "maata started grade 10 tuesday at inuksuk high")
    r"(?=(?:" + _WEEKDAY_NAMES + r")"
    r"(?:,(?!\s*(?:(?:and|or)\s+)?(?:" + _WEEKDAY_NAMES + r"))|[.!?;:]|\s*$|\s*" + EMOJI +  # (or an emoji: "cast comes off thursday 🙌")
    r"|\s+(?:" + _DAYPART + r"|and|at|so|but|during|while|when|from|on|with|wi|wiv|wae|w|after|before|aftah|afta|bifo|befo"  # (and as Scots and Cockney say "with": "callum starts monday
    # wi forestry", texting's "w", "toured uc saturday w mom", and Pidgin "after": "wen come by da counter Friday aftah da lunch rush")
    r"|i|im|i['\u2019]m|ill|i['\u2019]ll|we|we['\u2019]re|we['\u2019]ll"  # (a clause of theirs after it: "crew change wednesday im driving")
    r"|cos|coz|cuz|because|thank|thanks"  # (or why, or thanks for it: "started Tuesday cos of the bank holiday", "broke up Friday thank God")
    r"|right\s+(?:in|into|at|after|before|on|outside|by|through|as|when)"  # (or where or when exactly: "gave me a shot wednesday right in the joint")
    # (or where to: "me an Lorraine am goin Thursday to the one at the church hall"; not "monday to friday")
    r"|to\s+(?:the|a|an|my|our|his|her|their|see|get|pick|visit|meet)"
    r"|to\s+(?!(?:" + _WEEKDAY_NAMES + "|" + _MONTH_NAMES + r")\b)" + relevance.CAPITALISED + r"+"  # (or to whom: "sold Saturday to Deacon Hwang")
    r"|out|up|down|off|over|back|for|till|til|until|then|too|again|in|lol|haha|about|bout|finally|already|as well|first thing"
    r"|(?!(?:need|feed|seed|speed|bleed|breed|proceed|succeed|exceed|red|bed|wed)\b)[a-z]{2,}ed"  # (a past after it: "the MRI friday showed a disc")
    r"|said|told|gave|sent|found|took|saw"  # (... or one not in -ed: "the knee doctor monday said its a torn meniscus")
    r"|a-[a-z]+in[g'\u2019]?|(?!(?:coming|going|nothing|something|everything|anything)\b)[a-z]{2,}in[g'\u2019]?)\b"  # ("starts monday out at the rink", "did it monday liftin the bike")
    r"|\s+" + relevance.CAPITALISED + r"+\s*[!,]"  # (or the listener's name after it: "got the car Wednesday Morag!")
    r"|" + _HOUR_OR_ARROW + r"))"  # (or its hour: "we land saturday 11:40 at night", "fly friday 6am", "landed tues 2200";
    # or an arrow on to what happened: "slipped on ice thursday -> broke her wrist")
    # ... and one opening a sentence before a comma or its subject ("well monday, the labour day
    # holiday, we got that wind", "Monday we drove up", "Thursday morning I got the email"; not a list
    # of days: "Monday, Wednesday and Friday")
    r"|(?:^|(?<=[.!?]\s))(?:(?:[Ww]ell|[Ss]o|[Tt]hen|[Aa]nd|[Bb]ut)\s+)?(?=(?:" + _WEEKDAY_NAMES + r")"
    r"(?:\s+(?:out|off|back|home)\s+(?:of|from|to)\b|\s+(?:coming|going|driving|flying|walking|getting)\s+(?:back|home)\b"
    r"|\s+on\s+(?:the|my|our|his|her|their)\s+way\b)"
    r"|(?:" + _WEEKDAY_NAMES + r")"  # ("Sunday out of Frankfurt!", "Sunday coming back from me mam's", "Wednesday on the way home")
    # (each after its part of the day or none: "Thursday morning I got the email")
    # (and the creoles' "mi": "Wednesday mi go Mercy Clinic")
    r"(?:(?:\s+(?:" + _DAYPART + "|" + _CLOCK + "|" + _MEALTIME + r"))?(?:,(?!\s*(?:" + _WEEKDAY_NAMES + r"))|" + _ARROW + r"|\s+(?:[iI]|[Mm]i|we|he|she|they|my|our|me and"
    r"|had|got|went|did|took|sent|bought|sold|finished|started"  # (texting leaves the subject out: "Tuesday had a call out")
    # (or the day is the subject of its past: "friday was my last shift"; not "sunday is church and family",
    # every week, nor a holiday's name, "Monday was Memorial Day", which dates itself)
    r"|" + _DAY_IS_SUBJECT_OF + r"(?!\s+(?:(?i:the)\s+)?(?i:" + _HOLIDAY_NAMES + r")\b))\b"
    # ... or a clause of what happened then ("Saturday night when that storm come thru", "Sunday the maple dropped a limb")
    r"|\s+(?:when|the|it|its|it['\u2019]s|that|there|everyone|everybody|somebody|someone|nobody"
    r"|an?(?!\s+(?:week|fortnight)\b)|one\s+of)\s+(?:[a-z]|[A-Z])"  # ("friday night a man in bed 12 code", "thursday night one of my
    # patients fell", "and tuesday the AC in the shop died", "Saturday the Vito break down on the B10")
    # ... or what came then, its subject after it, as Italian and German order it ("Thursday come the Gesundheitsamt
    # for the control", "Wednesday come a Turkish man from Bad Cannstatt")
    r"|\s+(?:come|comes|came|arrive|arrives|arrived)\s+(?:the|a|an|my|our|his|her|their)\s"
    r"|\s+at\b"  # ("Tuesday night at like 11:30 Apá's phone rang", "satdy at the fair the burner quit")
    # ... or a name texted small and its past ("monday night yer had kidney stone"), or one written
    # capitalised, and Hawai'i Pidgin's past ("Thursday night Peanut wen bite one bufo", "Thursday Roy took her in")
    r"|\s+(?:[a-z]{3,12}|" + relevance.CAPITALISED + r"{2,12})\s+(?:had|got|was|went|did|took|came|fell|bit|broke|lost|left|wen\s+[a-z]{2,}|[a-z]{2,}ed)\b"
    # ... or a name written capitalised and what is set for them then ("Monday Helen have surgery", "Friday Jake starts
    # at the depot"): the tense of the rest says which Monday
    r"|\s+(?!(?:School|Night|Mass|Service|Market|Club|Roast|Lunch|Dinner|Brunch|League|Special|Morning|Evening)\b)" + relevance.CAPITALISED + r"{2,12}\s+(?:has|have|is|starts|gets|goes|flies|comes|leaves)\b"  # (not the creoles' bare past, "Thursday night Emma start get this bad pain")
    # ... or a name and a learner's bare verb of what no one sets a day for ("Saturday night Cheikh call me"): its
    # tense is ``_BARE_PAST``'s
    r"|\s+(?!(?:School|Night|Mass|Service|Market|Club|Roast|Lunch|Dinner|Brunch|League|Special|Morning|Evening)\b)" + relevance.CAPITALISED + r"{2,12}\s+(?:call|text|ring|buy|sell|give|tell|fall|bring|break|lose|find|send|pay|crash|drop|die|faint"
    r"|sprain|twist|hurt|cut|burn|fail|pass|win|quit|hit)\s"
    # ... or what it was, then who did what ("friday night radio bingo i won $1200!!", "Sunday night fever 104 and
    # breathing fast fast, we ran to Lyari General Hospital")
    r"|(?:\s+[a-z0-9]{1,12}){1,7},?\s+(?:i|we)\s+(?:won|got|had|went|did|took|came|saw|met|lost|ran|[a-z]{2,}ed)\b"
    r"|\s+(?:in|on|with)\s+(?:the|my|our|a|all(?:\s+the)?)\s(?!\d))"  # ("Monday night in the shower I felt a lump",
    # "saturday on the day shift, a man slid down the bed", "friday night with all the fireworks Shero freaked out")
    r"|(?:\s+(?:" + _DAYPART + r"))?[.!?]*\s*(?:" + EMOJI + r"\ufe0f?\s*)*$))"  # ... or alone, after the news it dates ("bought a
    # truck. wednesday.", "She had a fall. Thursday night.", "i sold the Accord!! saturday 😢")
    # ... or opening a clause after a comma, before where, who or what happened then ("let me tell you, saturday
    # at the fair the burner quit", "finally died, monday on their way to winco"); not a day that names the date
    # or the holiday before it ("joining on 17 March, Monday", "keys 30th, Friday at 3pm") nor one of a list
    # (and after ", and": "coughing bad all week, and Thursday night she couldn't catch her breath")
    r"|(?:(?<=[a-z],\s)(?<![Dd]ay,\s)(?<!\dst,\s)(?<!\dnd,\s)(?<!\drd,\s)(?<!\dth,\s)|(?<=[a-z],\sand\s)(?<![Dd]ay,\sand\s))(?=(?:" + _WEEKDAY_NAMES + r")"
    r"(?:\s+(?:" + _DAYPART + r"))?\s+(?:at|[iI]|we|he|she|they|my|our|me and|when|the|it|its|it['\u2019]s|there"
    r"|on\s+(?:the|my|our|his|her|their)\s+way|(?:come|comes|came|arrive|arrives|arrived)\s+(?:the|a|an|my|our|his|her|their))\b)"
    # ... or the day of a visit ("a guy came by friday with an offer"; "by friday" alone is a deadline)
    r"|(?<=\bcame\sby\s)|(?<=\bcome\sby\s)|(?<=\bstopped\sby\s)|(?<=\bdropped\sby\s)|(?<=\bswung\sby\s)|(?<=\bpopped\sby\s)"
    # ... or the day something has lasted since, wherever it stands ("Since Monday my father is in the Spital Interlaken")
    r"|(?<=\b[Ss]ince\s)(?=(?:" + _WEEKDAY_NAMES + r")(?!\s+(?i:school|service|mass|market|club|roast|lunch|dinner|brunch|league)\b)))"
    r"(?P<wd>" + _WEEKDAY_NAMES + r")"
    # ... and one written short after "on" or "this" ("on Tues", "this sat"; alone, "sat" and "wed" are verbs)
    r"|\b(?:[Oo]n|[Tt]his)\s+(?P<wda>(?i:" + "|".join(sorted(_WEEKDAY_ABBREVIATIONS, key=len, reverse=True)) + r"))"
    r"(?=[,.!?;:]|\s*$|" + _HOUR_OR_ARROW + r"|\s+(?:at|" + _DAYPART + r"|and|we|i|he|she|they|so|but|is|was|in|after|before|for|with)\b)"  # ("this Sat is
    # sheep shearing", "this sat in ludlow", "this fri after my 8am")
    # ... and bare, as a full name is, when it can be nothing else: capitalised ("the MRI Sat, at
    # Morriston", "Wed night"), or small when no word is spelt so ("teeth out thurs at the vets")
    # (or after the hour it names: "vet @ 16:30 thu")
    r"|(?:(?<=[A-Za-z]\s)" + _NOT_AFTER + r"|(?<=:\d{2}\s))" +
    r"(?P<wdb>" + "|".join(sorted({*(a.capitalize() for a in _WEEKDAY_ABBREVIATIONS), *(a for a in _WEEKDAY_ABBREVIATIONS
                                                                                     if a not in ("mon", "wed", "sat", "sun"))},
                                  key=lambda a: (-len(a), a)))  # (longest first; in a fixed order, not a set's)
    # (and "sat" small, when it ends what it dates and no one sat: "picked up the new whip sat 🚗", not "she sat 😂")
    + r"|sat(?=\s*(?:" + EMOJI + r"|$))" + "".join(rf"(?<!\b{w}\ssat)" for w in "i he she we they it you u who dog cat just and".split())
    + r")"
    r"(?!\s*(?:and|or|to|&|-|/)\s*(?i:mon|tue|wed|thu|fri|sat|sun))"  # (a span or a list, "fri and sat": every week)
    r"(?=[.,!?;:]|\s*$|\s*" + EMOJI + "|" + _HOUR_OR_ARROW + r"|\s+(?:" + _DAYPART + r"|and|at|so|but|during|while|when)\b))\b"
    r"(?!,?\s*(?!" + _HOUR_4 + r")\d{4}(?!\s+[a-z]))(?!\s+(?:mornings|afternoons|evenings|nights|arvos)\b)(?!['\u2019]s\b)"
    # ("monday 7th july", "Sunday 11th": the date says which Monday; not a number of something else, "Thursday, 48 from 50")
    r"(?!,?\s+(?:(?:the\s+)?\d{1,2}(?:(?:st|nd|rd|th)\b|\s+(?:of\s+)?(?:" + _MONTH_BY_DAY + r")\b)|(?:" + _MONTH_BY_DAY + r")\s+\d))"
)
# A day something is set to, put off to or moved to ("24일로 미뤘어", "토요일로 정함").
_KO_SET_TO = r"로\s*(?:다시\s*)?(?:미뤘|미뤄|미룸|밀렸|밀려|밀림|바뀌|바꼈|바꿨|바꿈|변경|연기|당겨|당겼|당김|잡혔|잡힘|잡았|잡음|정했|정함|옮겼)"
# (a weekday that comes every week, "매주 토요일에", "격주 화요일에", is no one day; nor one that names
# the day of the month before it, "23일 수욜": that day is the one)
_KO_PARTIAL = re.compile(r"(?<![년\d])(?<!년 )(?P<m>\d{1,2})월\s*(?P<d>\d{1,2})일"
                         r"|(?<!매주)(?<!매주 )(?<!격주)(?<!격주 )(?<!\d일)(?<!\d일 )(?<!일로,\s)(?<!일로\s)(?<!일로,)(?P<wd>" + "|".join(_KO_WEEKDAY_FORMS) + r")(?=에|자로|부터|날|" + _KO_SET_TO
                         # (or its part of the day: "수요일 새벽에"; not one of the days a class or a round comes, "화요일이랑
                         # 목요일 아침 7시 수업이요", "화요일 목요일 저녁에 해", "토요일 오전반")
                         # (a day after another, joined by 이랑, 하고 or 과, is one of a list; not one after a deed and its 하고:
                         # "지난주 목요일 팀 회식하고 금요일 새벽 3시에")
                         + r"|" + "".join(rf"(?<!{day}{joined}\s[월화수목금토일]요일)" for day in ("요일", "욜") for joined in ("이랑", "하고", "과"))
                         + r"(?<!요일\s[월화수목금토일]요일)(?<!,\s[월화수목금토일]요일)"
                         r"\s*(?:새벽|아침|오전|점심|오후|저녁|밤|낮)(?:에|엔)?(?![가-힣])(?![^.!?\n]*(?:마다|씩|수업|강습|반으로|반\b)))"
                         r"(?!부터\s*[월화수목금토일]요일\s*까지)"  # ("화요일부터 토요일까지": every week, no one day)
                         # ... and a day of the month alone, as a date ("국시가 24일이라", "24일부터 중간고사"), not a
                         # count ("3일 동안", "3일 뒤", "1일 1식", "4박 5일이야")
                         r"|(?<![월박\d])(?<!월 )(?<!박 )(?<![-.~])(?P<kd>\d{1,2})일(?=이라|이야|이고|이에요|이었|이잖|이니|부터|까지|에\s|에는|날|\s*[월화수목금토일](?:요일|욜)"
                         r"|" + _KO_SET_TO +
                         r"|(?<=달\s\d일)|(?<=달\s\d\d일)|(?<=달\d일)|(?<=달\d\d일))"
                         # ... and a month alone ("3월 말에 그만둬요", "작년 ... 10월에"): of this year or the next
                         # (the last), as the tense says; not a day of it, nor a count ("3개월")
                         # ... and a holiday on a fixed day ("첫 출근 삼일절임", "광복절 끼워서")
                         r"|(?P<kh>" + "|".join(sorted(_KO_HOLIDAYS, key=len, reverse=True)) + r")"
                         # ... and one on the lunar calendar, or the day beside it ("추석 담날", "설 지나고"; 설 alone
                         # only before what is said of the holiday: 설명, 설치 and 설거지 are other words)
                         r"|(?<![가-힣])(?P<kl>정월 ?대보름|대보름|설날|구정|추석|한가위|설(?=\s*(?:연휴|쇠|지나|전에|때|끝나|당일|전날|담날|다음\s?날)))"
                         r"(?:\s*(?P<kls>" + "|".join(_KO_HOLIDAY_SIDES) + r"))?"
                         r"|(?<![년\d])(?<!년 )(?<![-.~])(?P<km>1[0-2]|[1-9])월(?!\s*\d{1,2}일)(?=\s*(?:초|중순|말|초순|하순)?(?:에|부터|까지|쯤|경|달|엔|이|이라|이야|로))")
_PAST_EN = re.compile(
    # (and Hawai'i Pidgin's past, "wen" before the verb: "glenn wen call me", not "wen u coming", "when")
    r"\b(?:wen(?=\s+(?!(?:i|u|you|ya|we|he|she|they|it|r|is|are|da|the|my|your|ur|im)\b)[a-z])|was|were|had|did|went|got|ran|made|took|came|saw|met|gave|won|bought|found|left|began|told|felt|flew|"
    r"wis|drove|ate|wrote|sang|swam|spent|sold|thought|heard|kept|lost|paid|taught|caught|brought|held|woke|said|sat|slept|"
    r"fell|broke|born|became|chose|forgot|grew|knew|meant|rode|rang|sent|stood|stuck|threw|wore|fought|drew|drank|built|"
    r"spoke|blew|hid|hung|led|shook|slid|spun|struck|swore|swept|swung|tore|wept|froze|fled|dug|dealt|bled|sought|"
    r"sank|sprang|shrank|stung|crept|knelt|forgave|withdrew|overslept|mistook|arose|awoke|overtook|"
    # (and the British pasts in -t: "learnt to drive on saturday", "burnt my hand on monday")
    r"learnt|burnt|dreamt|spilt|leapt|spelt|smelt|"
    r"laid|mislaid|bent|bred|clung|flung|lent|shone|sped|spat|stole|strode|understood|overheard|undid|withheld|forbade|wove|"
    # (and the pasts spelt as the present that no one plans: "hurt it on saturday at rugby")
    r"hurt|burst|"
    # (and a clinician's "status post", the shorthand for what was done: "s/p L TKA tuesday at Good Sam")
    r"(?<![\w/])s/p(?![\w/])|"
    # (and what came on one all at once: "friday night my big toe suddenly bengkak")
    r"(?<!\bif\s)(?<!\bwill\s)suddenly|"
    # (and "gone" with its "has" or "is" left out, as the creoles tell a loss: "coming up di hill ... it just gone";
    # not what will be gone, "be gone by friday", nor one who is going, as the creoles say it: "ok me gone iron me shirt")
    r"(?<=[a-z]\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bis\s)(?<!\bare\s)(?<!['\u2019]s\s)(?<!['\u2019]re\s)(?<!\bwill\s)(?<!['\u2019]ll\s)(?<!\ball\s)"
    r"(?<!\bme\s)(?<!\bmi\s)(?<!\bi\s)(?<!\bah\s)(?<!\bwe\s)(?<!\bwi\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bhim\s)(?<!\bdem\s)(?<!\bthem\s)"
    r"(?<!\bthey\s)(?<!\byou\s)(?<!\byuh\s)(?<!\bu\s)(?<!\bunu\s)"
    r"gone(?!\s+(?:by|for|until|till|til|before|on)\b)|"
    # (and "bit", the deed, not a little: "the dog bit him Friday", not "a bit tired friday", "bit of a cold")
    r"(?<!\ba\s)(?<!\bthe\s)(?<!\blittle\s)(?<!\bwee\s)(?<!\btiny\s)(?<!\bquite\s)(?<!\bthis\s)(?<!\bthat\s)(?<!\bevery\s)"
    r"(?<!\bno\s)(?<!\bsome\s)(?<!\bone\s)bit(?!\s+(?:of|more|less|better|worse|much|too|late|early|tired|sore|off|longer|shorter|"
    r"bigger|smaller|slow|fast|quiet|busy|rough|cold|warm|hot|nervous|worried|scared|sad|down|extra|behind|lost)\b)|"
    r"[a-z]{2,}ed)\b(?!['\u2019]t)"  # (not "won't")
    # ... and the creoles' past, "bin" before the verb (Kriol and Aboriginal English, Gullah, Krio: "my aircon
    # bin die thursday night", "dion bin pick up the hilux sunday"), not the bin put out ("bin day friday")
    r"|(?<!\bthe )(?<!\ba )(?<!\bmy )(?<!\bour )(?<!\bda )(?<!\bde )(?<!\bwheelie )(?<!\brecycling )(?<!\bgreen )"
    r"(?<!\bblue )(?<!\bblack )(?<!\bbrown )(?<!\bin )(?<!\bto )\bbin(?=\s+(?!(?:day|days|bag|bags|men|man|lorry|lorries|collection|"
    r"liners?|lids?|it|them|that|this|these|those|out|in|is|was|are|were|full|empty|and|or|night)\b)[a-z]{2,})"
    # ... and West African Pidgin's "don" before the verb, done ("Emma don do the operation o, Tuesday morning",
    # "Brandon cast don comot on Thursday"), not texting's "don't" ("i don know", "dont wanna")
    r"|(?<=[a-z]\s)(?-i:don)(?=\s+(?!(?:know|no|wanna|want|wan|like|care|think|worry|mind|even|have|need|feel|remember|"
    r"understand|believe|bother|mean|forget|let|be|go|get|play|see|say|tell|ask|look|touch|call|waste|give|make|"
    r"take|stop|do\s+(?:it|that|this|dat|dis|am|nothing|anything)\b)\b)[a-z]{2,})"
    # ... and what one could not do ("Sunday he couldnt catch his breath"; "could" alone may be to come), did not do
    # or was not ("first snow thursday and the cx-5 didnt even flinch", "i didnt go to work thursday")
    r"|\b(?:couldn|didn|wasn|weren|hadn)['\u2019]?t\b"
    # ... and what is done with, as news tells it ("The exam is done!! On Tuesday, four hours"), not a day it will be
    # ("the kitchen is done on friday")
    r"|(?:(?<=\bis\s)|(?<=\bare\s)|(?<=['\u2019]s\s))(?:all\s+)?(?:done|over|finished)(?=\s*(?:[.!?,]|$))",
    re.IGNORECASE,
)
# ("the next day" tells a story's sequence, not the future: "had it on Tuesday and walked the next day";
# a modal is what may or must yet be, also in words reported: "Dr Patel said I can go back from the 5th")
_FUTURE_EN = re.compile(r"\b(?:will|'ll|going to|gonna|planning|can|can't|cannot|must|have to|has to|need to|needs to|plan to|is on|are on|is in|'s on|getting|"
    # (what is coming up, not a way up: "tuesday evening coming up di hill by peruvian vale it just gone")
    r"coming up(?!\s+(?:the|di|da|de|a|an|that|dat|this|dis|from|out|our|my|his|her|past|behind|through|thru|by|over|onto|into)\b)|(?<!the )next|"
                        # (booked, or signed up, for a day: still to come; "booked the flights on monday" is done)
                        r"(?:is|are|'s|'re|all|got|be|been)\s+booked|(?:booked|signed up|registered)\s+(?:\w+\s+){0,3}?(?:for|in)\b|scheduled|starts|(?<!didn't )(?<!didnt )(?<!did not )(?<!didn\u2019t )start|begins?"  # (not "the car didnt start thursday")
                        # (a date fixed is one to come: "is Appe's surgery date fixed?"; not "the car is fixed")
                        r"|\b(?:date|day)\s+(?:is\s+|was\s+|got\s+)?(?:fixed|set|confirmed|finali[sz]ed)\b"
                        # (what a day is set for, said in the present: "Colton turns 17 on March 2nd", "she flies out Friday")
                        r"|turns|opens|leaves|arrives|graduates|retires|flies|lands|departs|finishes|closes"
                        # ... or by what is booked: "Booked her on Emirates, landing in Auckland the 18th of December"
                        r"|(?<!was )(?<!were )(?:landing|arriving|departing)"
                        # ... or the flight or the road one is booked on, in the present ("we fly on Thursday isa", "i leave sunday")
                        r"|\b(?:we|i)\s+(?:fly|leave|depart)\b(?!\s+(?:it|them|him|her|the|my|our|a)\b)"
                        # ... or leaving, as a clause of its own says it ("booked the coach trip, goin' in September")
                        r"|(?<=,\s)(?:going|goin|leaving|leavin|flying|flyin|off)(?=['\u2019]?\s+(?:in|on|at|next|this)\b)"
                        # "got a GP appointment on thursday": one held, still to come (spelt by ear too, "got a apointment";
                        # and without its article, as learners leave it: "he got interview on Thursday")
                        r"|got\s+(?:(?:a|an|my|the)\s+(?:[\w&-]+\s+){0,2}|(?:job\s+)?(?=(?:interview|exam)\b))(?:ap+oi?nt?ment|appt|interview|exam|scan|consultation|meeting))\b",
                        re.IGNORECASE)
# The past in Korean is a syllable closed by ㅆ (었, 했, 갔, 옮겼, 부러졌, 데려왔), but for 있 (there is) and 겠
# (will, must): a list of the common ones missed "옮겼다", and a Wednesday said on a Sunday was read ahead.
def ending_in(final: int) -> str:
    """Every Hangul syllable whose final consonant is the ``final``-th (4: ㄴ, 8: ㄹ, 16: ㅁ, 20: ㅆ), as one string."""
    return "".join(chr(0xAC00 + 28 * i + final) for i in range(19 * 21))


# (not 있, there is, nor 겠, will: a sentence's past is read by these)
KO_PAST_SYLLABLES = "".join(c for c in ending_in(20) if c not in "있겠")
# (and its ㅆ typed as ㅅ, as a sleepy thumb types it: "신경성형술 햇는데", "받앗다", "알앗다"; not 햇살, 갓김치)
_PAST_KO = re.compile("[" + KO_PAST_SYLLABLES + "]|[햇앗엇갓왓됏봣줫켯쳣](?=다|어|는데|고\\s|지만|음|던|더라|네)")
# Texting's nominal ending ("자고 감", "등록함", "끝남": a syllable closed by ㅁ) narrates without a
# tense; unless something says it is still to come (~ㄹ 거/게/래/까/수, ~려고, ~겠, 예정, moved to).
_KO_NOMINAL_END = re.compile("[" + ending_in(16) + r"][.!~^ㅋㅎㅠㅜ\s]*$")
# What is left of a Korean sentence that only names a day: particles, marks, laughter.
_KO_LEFT = re.compile(r"(?:초|중순|말|초순|하순)?(?:에는|에|엔|이요|요|쯤|경|부터|까지|날)?(?![가-힣])|[\s.,!?~^ㅋㅎㅠㅜ]")
# How far back a Korean month alone reaches with a past verb: further back, it is said with 작년.
_KO_MONTH_BACK = 8
_KO_FROM = re.compile(r"\s*(?:초|중순|말|초순|하순)?\s*부터")
# What one starts on a day, in the present: a start to come ("현장 들어간다", "출근해요", "개강이에요").
# (a past is read before this is asked: "월요일부터 헬스 시작했어" is gone)
_KO_STARTS = re.compile(r"들어간|들어가요|들어감|출근(?:해|한|함|이)|시작(?:해|한|함|이)|개강|개학|첫\s*출근|입사(?:해|한|함)|복귀(?:해|한|함)|오픈(?:해|한|함|이)")
_KO_AHEAD = re.compile(r"[" + ending_in(8) + r"]\s*(?:거|게|께|래|까|수|예정|계획)"
                       r"|려고|려구|겠|예정|로\s*(?:당김|미룸|바뀜|바꿈|변경|연기)")  # (or a plan moved: "7일로 당김")
# A plan made is past, the day it is for is not: "하기로 했어요", "날짜 잡았어요", "예약했어요",
# "예정이에요" ...
_KO_PLANNED = re.compile(r"기로\s*(?:했|혔|하|함|결정)|로\s*(?:잡았|잡었|잡혔|잡힘|잡음|정했|정함)|날짜\S{0,2}\s*(?:나왔|나옴|떴)|예정"
                          r"|(?:날짜|일정|예약|일로|요일로)\S{0,2}\s*(?:잡았|잡었|잡혔|잡아|잡음|정했|정해|정함)|(?<![가-힣])날\s*(?:잡았|잡었|잡혔)"  # (잡었: 전라도 for 잡았)
                          # (or what is set for the day: "목요일에 ... 난임센터 첫 상담 잡았어", "수술 잡혔어요")
                          r"|(?:상담|진료|수술|시술|검사|면접|미팅|회의|약속|외래|진찰|접종|촬영|레슨|시승|상견례)\s*(?:을|를|도|은|는|이|가)?\s*(?:잡았|잡었|잡혔|잡음|잡아\s*(?:놨|뒀))"
                          # (a booking made or left standing, a ticket bought: "월요일 오전에 ... 시승 예약해놨어요", "토요일 KTX 표 끊었어")
                          r"|예약\s*(?:했|해\s*(?:놨|놓았|놓음|뒀|두었|둠)|함|완료|걸어\s*(?:놨|뒀))|예매\s*(?:했|해\s*(?:놨|놓았|뒀|두었)|함|완료)"
                          r"|(?:표|티켓|항공권|비행기표|기차표)\s*(?:를|을|도)?\s*(?:끊었|끊어\s*(?:놨|뒀)|끊음)")
# ... and so is the day something is moved to ("8월 11일로 미뤘어요", "다음 달로 바뀌었대요", "7일 출발로
# 당겨졌어", "11일부터 24일까지로"), and the day it is moved from ("5월 31일에서 6월 7일로 미뤘어요"); not a
# day something else is moved on ("월요일에 큰 병원으로 옮겼다").
_KO_MOVED_TO = re.compile(r"(?:(?:에서|부터)\s*(?:(?:\d+년\s*)?(?:\d+월\s*)?\d+일|[월화수목금토일]요일)(?:\s*까지)?"
                          r"|\s*(?:출발|도착|일정|날짜|예약|시작))?"
                          r"(?:으로|로)\s*(?:다시\s*)?(?:미뤘|미뤄|미루|밀렸|밀려|밀림|바꼈|바뀌|바꿨|바꿔|옮겼|옮겨|변경|연기|당겼|당겨|앞당)")


# "so excited", "I'm tired", "feel rested": a word in -ed after these describes, it does not tell
# what was done; nor does "need", "feed", "speed".
_STATE_BEFORE = {"am", "m", "is", "s", "are", "re", "be", "being", "so", "very", "really", "too", "feel", "feeling",
                 "get", "getting", "got", "super", "pretty", "quite", "bit", "more", "most"}


# Where an English clause ends, for the tense of a date in it ("ive booked lessons 😬 first one is
# this thursday", "I went on monday and I'm seeing them again on friday").
_CLAUSE_END = re.compile(r"[,;:!?()]|(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bSt)\.|\s[-\u2013\u2014]\s|" + EMOJI + r"|\s(?:and|but|so|then)\s", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]{2,}(?<!\bon)(?<!\bOn)")
# (not pidgin's and Krio's "am", it or him, after a verb: "A buy am on Tuesday", "e come check am")
_PRESENT_EN = re.compile(r"(?<!['\u2019])\b(?:is|are|(?<!buy\s)(?<!see\s)(?<!fix\s)(?<!check\s)(?<!sell\s)(?<!bring\s)(?<!carry\s)am|isn't|aren't|im|theyre|hes|shes|thats|(?:it|that|he|she|there)['\u2019]s)\b"
                         r"|['\u2019](?:re|m)\b"  # (not a possessive's: "went to Dan's on saturday")
                         # ... but a thing's 's right before the day it names is "is": "the funeral's Wednesday"
                         # (not someone's place, "round at Kirsty's Sunday")
                         r"|\b(?:the|my|his|her|our|their|your)\s+[a-z]+['\u2019]s(?=\s+(?:" + "|".join(_WEEKDAYS) + r")\b)"
                         # ... and "its" texted for "it's" before the day ("its Thursday at the imaging place")
                         r"|\bits(?=\s+(?:on\s+|this\s+|next\s+)?(?:" + "|".join(_WEEKDAYS) + r")\b)", re.IGNORECASE)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause holding ``text[start:end]`` begins and ends."""
    before = [m.end() for m in _CLAUSE_END.finditer(text, 0, start)]
    after = _CLAUSE_END.search(text, end)
    return before[-1] if before else 0, after.start() if after else len(text)


# What one wrote or asked about doing is still to come ("Emailed my manager about coming back on the 2nd
# of september", "asked about starting in June").
_ABOUT_DOING = re.compile(r"\babout\s+[a-z]{2,}ing\b", re.IGNORECASE)
# The progressive with its "be" left out, as texting and creoles drop it ("they doing her surgery
# wednesday", "i bringing her thursday"): what is going on or arranged, not done.
_DROPPED_BE = re.compile(r"\b(?:i|we|they|he|she|u|you|yall|y'all)\s+(?:still\s+|just\s+|all\s+)?"
                         r"(?!(?:thing|nothing|something|anything|everything|morning|evening|wedding|during|spring|string|bring|"
                         r"sting|swing|cling|fling|sling|ceiling|building|sibling|pudding|darling)\b)[a-z]{2,}ing\b", re.IGNORECASE)


# ... and with its subject left out too, opening the clause right before the day ("flyin Tuesday,
# Kieran's droppin us at Birmingham", "moving in saturday"): an arrangement, as "I'm flying Tuesday" is;
# not a scene set on a day gone ("Coming in from camp Sunday in the dark, the wheel got bent").
_OPENS_ON_DOING = re.compile(r"(?:^|(?<=[.!?,;:\n])|(?<=[.!?,;:\n]\s))(?:just\s+|still\s+|now\s+)?(?-i:[a-z]{2,}(?:ing|in['\u2019]?))"
                             r"(?:\s+(?:in|out|off|up|back|home|over|down|away))?(?=\s+(?:on\s+|this\s+|next\s+)?(?:"
                             + _WEEKDAY_NAMES + r"|tomorrow|tmrw|tonight)\b)", re.IGNORECASE)


def _marks(text: str, lo: int, hi: int, day: tuple[int, int] = (0, 0)) -> list[tuple[int, bool]]:
    """The tenses in ``text[lo:hi]``, in order: where each is, and whether it is past (not the ``day`` itself)."""
    pasts = _past_at(text, lo, hi)
    # (not the "is" of what is gone or broken, which is a past: ``_GONE_STATE``)
    gone = {i for i in pasts if _GONE_STATE.match(text, i)}
    to_come = [m.span() for ahead in (_FUTURE_EN, _ABOUT_DOING, _DROPPED_BE, _OPENS_ON_DOING, _PRESENT_EN) for m in ahead.finditer(text, lo, hi)
               if m.start() not in gone]
    # (a past inside what reads to come is part of it, "Shazia's booked us in"; and not the day itself, "this Sat")
    return sorted([*((a, False) for a, _ in to_come),
                   *((i, True) for i in pasts if not day[0] <= i < day[1] and not any(a <= i < b for a, b in to_come))],
                  # (at one word, what is still to come wins: "booked the dentist for 20 March", "got a GP appointment")
                  key=lambda mark: (mark[0], not mark[1]))


def _tense_at(text: str, start: int, end: int, earlier: bool | None, asked: str | None = None, coming: bool = False) -> bool | None:
    """Whether the English date at ``text[start:end]`` lies in the past: the tense nearest it in
    its own clause (before it, else after it: "ive booked lessons 😬 first one is this thursday",
    "theyre eight on the 2nd of may"), else the way the date before it in the text went
    (``earlier``: "start june 3rd... wait no june 10th"), else the tense of the whole text, else
    of the question it answers (``asked``: "the babies came?" - "On Friday!"); None when nothing
    has a tense and the day stands alone ("5 August." opening the news). ``coming``: a day that is
    to come unless its own clause says otherwise ("I booked the test!! this Sat, at the centre")."""
    lo, hi = _clause(text, start, end)
    marks = _marks(text, lo, hi, (start, end))
    ahead = [past for i, past in marks if i < start]
    if ahead or marks:
        return ahead[-1] if ahead else marks[0][1]
    if coming:
        return False
    if earlier is not None:
        return earlier
    # (else, for a day opening the sentence, the tense nearest after it, in the clauses that follow: "Thursday the truck
    # of Lakeshore, the distributor, came late ..., so I start to carry the cases")
    later = _marks(text, hi, len(text)) if re.fullmatch(r"\W*(?:on\s+)?", text[:start], re.IGNORECASE) else []
    if later:
        return later[0][1]
    told = next((t for t in (text, asked) if t and (_FUTURE_EN.search(t) or _PRESENT_EN.search(t) or _past_at(t))), None)
    if told is None and not _WORD.search(text[:start] + text[end:]):
        return None  # the day alone: no verb says which way
    return _past(told or text, False)


# A verb whose past is its present, after one person who did it and before what it was done to:
# past ("Gabe hit his first home run", "she cut her hair"; "they hit the road" may be either).
# (one thing of theirs, not many: "the letter", "my engine"; and what a deed is done to: "his", "a", "me")
_ONE_THING = r"(?i:the|my|our|his|her|their)\s+[a-z]+(?<!s)"
_DONE_TO_WHOM = r"his|her|its|it|a|an|the|my|our|their|him|me|us|them|one|\d"  # ("one", a learner's "a": "the scooter hit one ice ridge")
# Words that open a sentence and are no one's name texted small ("scanner lad come tuesday", "brownie drop she kids"):
# the two openers below add their own.
_OPENS_NO_NAME = "i|we|you|u|they|yall|and|then|so|pls|please|can|will|to|when|if|once|till|until|before|after|as"
_SAME_PAST = re.compile(r"\b(?:[Hh]e|[Ss]he|" + relevance.CAPITALISED + r"+|(?i:boy|girl|guy|man|woman|lad|kid|son|daughter|husband|wife|dad|mum|mom"
                        r"|somebody|someone|nobody|everybody|everyone))"
                        r"\s+(hit|cut|put|hurt|quit|shut|split|set|let|cost)"
                        r"(?=\s+(?:" + _DONE_TO_WHOM + r"))"
                        # ... and a hurt of one's own, "i" or "we" ("tuesday i hurt my back": no one plans one)
                        r"|\b(?:I|i|[Ww]e)\s+(hurt|hit)(?=\s+(?:my|our)\s)"
                        # ... and what befell one, its "was" left out as learners and headlines leave it ("Friday night
                        # Belang hit by motor", "he bitten by a dog Sunday")
                        r"|\b(?:[Hh]e|[Ss]he|" + relevance.CAPITALISED + r"+|" + _ONE_THING + r")\s+(hit|bit|bitten|stung|run\s+over|knocked\s+(?:down|over))\s+by\b"
                        # ... and "come" after one person or thing, before the day, as the South and the islands say
                        # its past ("the letter come friday", "she come home saturday"); not after when, if or a modal
                        r"|(?<!\bwhen\s)(?<!\bif\s)(?<!\bcan\s)(?<!\bwill\s)(?<!\bto\s)(?<!\btill\s)(?<!\buntil\s)(?<!\bonce\s)"
                        r"(?<!\bbefore\s)(?<!\bafter\s)\b(?:[Hh]e|[Ss]he|" + _ONE_THING
                        # (a thing of two words too: "The green card come in the mail on Thursday")
                        + r"|(?i:the|my|our|his|her|their)\s+[a-z]+\s+[a-z]+(?<!s)"
                        # (or one who opens the sentence, texted without "the": "scanner lad come tuesday")
                        + r"|(?:^|(?<=[.!?]\s))(?!(?:" + _OPENS_NO_NAME + r"|yous)\b)"
                        r"[a-z]{3,}(?<!s)(?:\s+(?!(?:we|you|they|she)\b)[a-z]{3,}(?<!s))?"
                        r")\s+(come)"
                        r"(?=\s+(?:(?:back|home|over|by|in|through|thru)\s+)?(?:in\s+the\s+(?:mail|post)\s+)?(?:on\s+)?(?:" + _WEEKDAY_NAMES + r")\b)"
                        # ... and a name texted small, opening its clause, that quit on a day ("bad news, chong quit tuesday")
                        r"|(?:^|(?<=[.!?,]\s))(?!(?:gonna|wanna|gotta|will|must|might|could|would|should|cant|dont|may|and|then|just)\b)"
                        r"[a-z]{3,12}\s+(quit)(?=\s+(?:on\s+)?(?:" + _WEEKDAY_NAMES + r")\b)"
                        # ... and one thing or crew that did it ("the well crew hit water Monday": "hits" were it now)
                        r"|\b(?i:the|my|our|his|her|their)\s+(?:[a-z]+\s+)?[a-z]+(?<!s)(?<!\bthe\sone)\s+(hit|cut|put|set|let|shut|cost)"
                        r"(?=\s+(?:" + _DONE_TO_WHOM + r"|water|oil|gold))"
                        # ... and a thing of theirs that gave out on them ("the burner quit on me", "the engine cut out")
                        r"|\b" + _ONE_THING + r"\s+(quit|cut)(?=\s+(?:on|out)\b)"
                        # ... or quit on a day, wherever it was ("the furnace at home quit thursday night")
                        r"|\b" + _ONE_THING + r"(?:\s+(?:at|in|on|of)\s+(?:(?i:the|my|our)\s+)?[a-z]+)?\s+(quit)(?=\s+(?:on\s+)?(?:" + _WEEKDAY_NAMES + r")\b)"
                        # ... and a learner's or a creole's bare verb after one person, the present's -s left off, of what
                        # no one plans: a day gone ("Ethan lose his first tooth!!! on Friday"; "He start on Monday" may be either)
                        r"|(?<!\bwhen\s)(?<!\bif\s)(?<!\bonce\s)(?<!\bbefore\s)(?<!\bafter\s)(?<!\bto\s)(?<!\blet\s)(?<!\bmake\s)"
                        r"(?<!\bhelp\s)(?<!\bsee\s)(?<!\bwatch\s)(?<!\bhear\s)"
                        r"\b(?:[Hh]e|[Ss]he|(?!(?:We|You|They|Then|And|But|So|Please|Pls|Must|Can|Will|Let|Just|Maybe|Hope|Don|Didn|Did"
                        r"|Should|Could|Would|Might|May|Gonna|Wanna|Gotta|Need|The|This|That|When|If|What|Why|How|Who|Where)\b)" + relevance.CAPITALISED + r"+)"
                        r"\s+(lose|break|win|fail|crash|fall|die|pass\s+away)(?=\s)"
                        # ... and "done" for "did", as the South, Ireland and the islands say it ("they done the surgery
                        # Monday", "we done the fence Tuesday"; not "we done with it", a state)
                        r"|\b(?:I|[Ww]e|[Tt]hey|[Hh]e|[Ss]he|" + relevance.CAPITALISED + r"+)\s+(done)(?=\s+(?:" + _DONE_TO_WHOM + r"|that|this|those|these)\b)"
                        # ... and one opening the sentence with its "I" left out, done by oneself ("put the new clutch in
                        # the rover myself on wednesday"): an order or a plan is not told with "myself"
                        r"|(?:^|(?<=[.!?\n])\s*)((?i:put|cut|set|fit|shut|hit))(?=\s[^.!?\n]*\b(?i:myself|meself|masel|ourselves)\b)")


# The present perfect of a deed, as learners tell one done on a day ("I have been at the doctor on
# Friday", German's "ich war"/"ich bin gewesen"): past, though "have" reads present.
_PERFECT = re.compile(r"(?<!will )(?<!ll )(?<!would )(?<!could )(?<!should )(?<!must )(?<!might )\b(?:have|has|[Ii]['\u2019]?ve|we['\u2019]?ve)\s+(?:just\s+|already\s+|also\s+)?"
                      r"(?:been|seen|done|gone|eaten|taken|given|spoken|written|met|had"
                      # (and a learner's perfect of the bare verb: "Monday I have send all the papers", "Tuesday I have receive
                      # the first delivery")
                      r"|send|receive|buy|sell|give|take|bring|write|speak|tell|find|make)\b", re.IGNORECASE)


# What follows a deed done to something ("picked it up", "booked the flights"): a verb, not a state.
_DONE_TO = re.compile(r"\s+(?:it|them|him|her|me|us|the|a|an|my|his|our|their)\b", re.IGNORECASE)


# Whom a way of doing it is likened to, before "used to" or "did" ("like bapuji used to", "as mum did").
_LIKENED = re.compile(r"\b(?:like|as)\s+(?:[\w'\u2019]+\s+){1,2}$", re.IGNORECASE)


# A verb left bare after one person or thing, which English would give an -s were it now ("Tiger eat a
# chicken bone Friday night", "Natasha have de baby Wednesday night", "de boiler dead Sunday night"):
# the past, as creoles and learners tell it (Guyanese, Jamaican, Liberian, Hmong English), in a sentence
# that names a weekday (``_BARE_DAY``; not the verbs that tell a timetable: start, finish, leave). Not
# after whatever makes a verb bare ("let Tiger eat", "will Natasha have", "Gary and Tiger eat": more than one).
_BARE_PAST = re.compile(r"(?:\b(?!(?:They|You|We|Who|What|Which|These|Those|Then|There|Here|And|But|So|When|Where|Why|How|Please|Must"
                        r"|Will|Can|Could|Should|Would|Might|May|Also|Just|Still|Never|Always|Did|Does|Do|Let|Make|Only|Even|All|Some|Both"
                        r"|" + _WEEKDAY_NAMES + r")\b)"  # (nor the day, its verb before its subject: "Thursday come the Gesundheitsamt")
                        r"(?:[Hh]e|[Ss]he|(?-i:" + relevance.CAPITALISED + r"{2,})(?<!s)|(?-i:[A-Z]{2,5})|(?i:the|de|di|my|me|mi|our|his|her|one)\s+(?:[a-z]{3,}(?<!s)|" + relevance.CAPITALISED + r"{2,})"
                        # (or a name texted small, opening its line or sentence, or the news: "brownie drop she kids wednesday
                        # night", "other news, joe buy a snowmachine on thursday!"; not a word texted short, "ill email it monday")
                        r"|(?:^|(?<=\n)|(?<=[.!?]\s)|(?<=news,\s)|(?<=news:\s)|(?<=day\s))(?!(?:" + _OPENS_NO_NAME + r"|dem|dey|den|dat|dis|yuh|unu|wi|ill|ive|id|im"
                        r"|imma|ima|well|youll|theyll|shell|hell|wont|cant|didnt|doesnt|isnt|wasnt|aint|come|go"
                        r"|let|make|do|did|does|dont|must|should|would|could|might|may|also|just|still|never|always|only|even"
                        r"|all|some|both|who|what|which|where|why|how|there|here|this|that|these|those|it|its|she|he|me|mi|ah|nobody|everybody"
                        r"|somebody|someone|everyone|anyone|nothing|kids|lets|gotta|gonna|wanna|hope|think|tink|maybe|bout|about|plz)\b)"
                        r"(?-i:[a-z]{3,12})(?<!s))\s+"
                        r"(eat|have(?=\s+(?:de|di|the|a|an|her|his|she|he|it)\b)|buy|sell|give|take|tell|fall|get|make|bring|break|lose|find"
                        r"|drive|pass|die|dead|send|pay|catch|bite|throw|win|drop|crash|burn|carry|meet|faint|vomit|slip|wreck|run|ring|call|text"
                        r"|come|fail|email|see|sprain|twist|hurt|quit|stop(?=\s+work|\s*[.!,])|go(?=\s*[.!,]))"  # (what gave out: "On Thursday boiler stop working",
                        # "Tuesday evening, in the middle of the service, ..., and the fryer stop.", "thursday ... the clutch go, on the N31")
                        # ... and after "I" or "we", the deeds no one plans in the bare present ("I buy the Honda Fit
                        # Thursday", "I call Bahamasair Friday and cancel the ticket"; not "I fly Friday", "I start Monday")
                        r"|\b(?:[Ii]|[Ww]e|[Aa]h)\s+(?P<own>buy|sell|call|cancel|eat|break|lose|find|crash|drop|fall|faint|vomit|slip|wreck|pass|rush"
                        r"|send|give|tell|catch|win|bring|carry)"
                        # ... and any verb after the creoles' "mi", "ah" or Krio's "a" opening a clause, whose future is
                        # marked ("Wednesday mi go Mercy Clinic", "A buy am on Tuesday"; "mi wi go", "mi gwen go", "a go go")
                        r"|(?:^|(?<=[.!?,;:]\s)|(?<=\n)|(?<=day\s)|(?<=night\s)|(?<=morning\s)|(?<=evening\s)|(?<=\ben\s))"
                        r"(?:[Mm]i|[Aa]h|[Aa](?=\s+[a-z]+\s+(?:am|di|de|me|mi|wit|for|go|come)\b))\s+"
                        r"(?!(?:wi|will|gwen|gwine|ga|go\s+go|a|ago|di|deh|de|neva|nuh|na|nah|doh|cyaan|cyah|haffi|hafi|wah|want|fi|mus|must"
                        r"|can|could|would|should|might|did|does|do|hope|think|tink|know|nuo|love|like|glad|sorry)\b)([a-z]{2,}))\b"
                        r"(?!(?<=have)\s+(?:(?:her|his|the|de|di|a|an)\s+)?(?:[A-Za-z]+\s+){0,2}?(?:surgery|operation|op|appointment|appt"
                        # (what one has to come: "Mom have her surgery Friday", or each week: "she have Japanese Saturday school")
                        r"|interview|exam|test|scan|meeting|class|game|match|party|shift|school|lesson|lessons|practice|training)\b)")
# The weekday such a sentence names, before the verb or after it ("On Friday Arkady call all of us"), not
# "this Wednesday" (the coming one though what led to it is past: "She send me for a breathing test at
# Stepping Hill this Wednesday").
_BARE_DAY = re.compile(r"(?<!this\s)(?<!next\s)(?<!coming\s)\b(?:" + "|".join(_WEEKDAYS) + r")\b", re.IGNORECASE)
_ON_A_CONDITION = frozenset("if unless once when whenever".split())  # ("then if she says yes we call Cheryl Monday")
_MAKES_BARE = frozenset("and an & let lets make makes made help helps helped see saw watch watched hear heard have has had to will would "
                        "shall should can could may might must gonna wanna gotta go did do does didnt doesnt dont didn't doesn't don't "
                        "if when till until before after once as please also just then".split())  # ("long as she get she money Friday")


# What is broken or gone, told on a weekday its clause names bare, became so that day: gone by ("on Wednesday the
# clutch of the Touran is gone", "Friday night the furnace is dead"; not "my phone is dead, I call you Wednesday").
# ... and what a learner says is done ("whole week done already", "already finish") or nearly befell ("I almost drop
# Ebiil lol"): past, whatever the bare verb beside it.
_LEARNER_DONE = re.compile(r"\b(?:done|finish(?:ed)?|over)\s+already\b|\balready\s+(?:done|finish(?:ed)?|over)\b"
                           r"|\b(?:I|we|he|she|they)\s+(?:almost|nearly)\s+(?!always|never|every|all|there|ready|done|same)[a-z]{3,}(?<!s)(?<!ing)\b",
                           re.IGNORECASE)
_GONE_STATE = re.compile(r"\b(?:is|are|['\u2019]s)\s+(?:all\s+|totally\s+|completely\s+)?(?:gone|dead|broken|kaput|busted|stolen|cracked|flooded"
                         r"|burnt|burned|smashed|wrecked)\b", re.IGNORECASE)


def names_a_bare_weekday(text: str) -> bool:
    """Whether ``text`` names a weekday bare, not "this", "next" or "coming" one (``_BARE_DAY``): which one, the
    tense of what is told of it says."""
    return _BARE_DAY.search(text) is not None


def _past_at(text: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """Where the verbs in the past tense are in ``text[lo:hi]``."""
    end = len(text) if hi is None else hi
    out = [m.start(m.lastindex or 0) for m in _SAME_PAST.finditer(text, lo, end)]
    for m in _BARE_PAST.finditer(text, lo, end):
        before = re.findall(r"[\w'&]+", text[: m.start()].lower())
        opens = max(text.rfind(c, 0, m.start()) for c in ".!?;\n") + 1
        closes = min([i for i in (text.find(c, m.end()) for c in ".!?;\n") if i >= 0] or [len(text)])
        # ("and" makes a name's verb bare, "Gary and Tiger eat", not "I"'s or "we"'s: "... drop and we rush she to milton cato";
        # nor one after a comma, opening a clause of its own: "..., the queue until the door, and the fryer stop.")
        makes_bare = _MAKES_BARE - {"and"} if m.lastgroup == "own" or re.search(r",\s+and\s+$", text[:m.start()]) else _MAKES_BARE
        # (two words back for a name, "will Natasha have"; one for a thing with its article: "to Drachten the clutch go")
        near = before[-1:] if re.match(r"(?i:the|de|di|my|our|his|her)\s", m.group(0)) else before[-2:]
        if (_BARE_DAY.search(text, opens, closes) and not set(near) & makes_bare
                and not set(before[-6:]) & _ON_A_CONDITION):
            out.append(m.start(m.lastindex or 0))
    out += [m.start() for m in _PERFECT.finditer(text, lo, end)]
    out += [m.start() for m in _LEARNER_DONE.finditer(text, lo, end)]
    out += [m.start() for m in _GONE_STATE.finditer(text, lo, end) if _BARE_DAY.search(text, *_clause(text, m.start(), m.end()))]
    for m in _PAST_EN.finditer(text, lo, end):
        word = m.group(0).lower()
        before = re.findall(r"[a-z]+", text[: m.start()].lower())[-1:]
        if word.endswith("ed") and (word.endswith("eed") or (before and before[0] in _STATE_BEFORE
                                                           and not _DONE_TO.match(text, m.end()))):
            continue  # ("so tired", "too excited": how one is; not "too picked it up Saturday": a deed)
        if word == "got" and before and before[0] in ("ve", "ive", "have", "has", "s"):  # "ive got to": must, not did
            continue
        if word in ("used", "did") and _LIKENED.search(text, max(lo, m.start() - 40), m.start()):
            continue  # (a way done before, the clause's tense its own: "keep undhiyu ready for the 14th, like bapuji used to")
        out.append(m.start())
    return sorted(out)


# A Korean clause quoted (결혼한다고, 갔다고, 연대라고) keeps a tense of its own: "9월 20일에 결혼한다고
# 청첩장이 왔다" is a wedding to come, though the invitation came.
_KO_QUOTED = re.compile(r"[가-힣]+(?:다고|라고)(?![가-힣])")


def tells_a_past(text: str) -> bool:
    """Whether an English ``text`` has a verb in the past tense ("the Beast died")."""
    return bool(_past_at(text))


def _ko_clause_past(text: str, end: int) -> bool | None:
    """Whether the Korean month alone or holiday ending at ``text[end]`` is past: by its own clause, up to the
    first verb that links it to the next ("8월에 다낭 가려고 4월 1일 비행기표 끊었어요": the trip is
    to come; "9월에 회사 큰 프로모션이 잡혀서 11월로 미뤘어요"), as the tense nearest an English date
    decides (what comes before it in the sentence is another clause's)."""
    link = _KO_CLAUSE_LINK.search(text, end)
    return _ko_past_at(text[end: link.end() if link else len(text)], 0)


# A Korean verb that ends its clause and leads into the next: ~고, ~서, ~는데, ~려고, ~면, ~니까, ~지만
_KO_CLAUSE_LINK = re.compile(r"(?<=[가-힣])(?:고|서|는데|은데|던데|려고|려구|면|니까|니께|지만|다가|자고|라고|이라)(?=[\s,.!~]|$)|[,.!?](?=\s|$)")


# A date called off or moved from ("3월 15일 거 취소하고 5월 10일로 옮겼어요", "22일에서 29일로"): the
# cancelling is past, not the day; the nearer one is meant.
_KO_CALLED_OFF = re.compile(r"\s*(?:거|것|건|꺼|을|를|은|는|도|에\s*하려던\s*거)?\s*(?:취소|캔슬|미뤄|미뤘|미루|연기|에서\s)")


# (a verb after the date that ends the sentence in the present: "지붕 보러 온댜", "찾으러 가요"; not "동네
# 정형외과에서", no verb, nor 음슴체's "핫픽스 두번 함", no tense)
_KO_SAID_AFTER = re.compile(r"\s[^\n]*[가-힣](?:요|대|댜|해|혀|다|야|어|여|유|지|래|게|께|까|네)[^가-힣]*$")


def _ko_past_at(text: str, end: int) -> bool | None:
    """Whether the Korean date ending at ``text[end]`` is past: by the clause quoted after it, if
    one is, else by the sentence; None when a nominal ending tells no tense ("생일인 29일에 안동 와서
    하룻밤 자고 감"): the nearer day."""
    if _KO_CALLED_OFF.match(text, end):
        return None
    quoted = _KO_QUOTED.search(text, end)
    told = text[end:quoted.end()] if quoted else text
    if _past(told, True):
        # (but a past before the date is another clause's when the date's own, after it, is in the present:
        # "했지 아범이 김사장헌티 전화혀서 수요일에 지붕 보러 온댜", the Wednesday to come; not "병원 갔어
        # 수요일에", nothing after it, nor 음슴체's "토요일에 크래시 터져서 핫픽스 두번 함", no tense)
        rest = text[end:]
        return bool(quoted or not _KO_SAID_AFTER.search(rest) or _past(rest, True) or _KO_FROM.match(rest))
    # (and "1월부터 필라테스 다녀요", from or since: the present says neither; but a start is to come,
    # "월요일부터 용인 현장 들어간다", "월요일부터 출근해요": one starts from a day, one is not "started since")
    since = _KO_FROM.match(text, end)
    if since and _KO_STARTS.search(text, since.end()):
        return False
    untold = _KO_NOMINAL_END.search(told) or since
    return None if untold and not _KO_AHEAD.search(told) else False


def _past(text: str, korean: bool) -> bool:
    if korean:
        return bool(_PAST_KO.search(text))
    return not _FUTURE_EN.search(text) and bool(_past_at(text))


def _partial_day(said: date, month: int, day: int, past: bool) -> date | None:
    for year in ((said.year, said.year - 1) if past else (said.year, said.year + 1)):
        try:
            d = date(year, month, day)
        except ValueError:
            return None
        if (d <= said) if past else (d >= said):
            return d
    return None


def _by_tense(said: date, tense: bool | None, back: date | None, ahead: date | None) -> date | None:
    """The day gone by (``tense`` past: True), the one to come (False), or the nearer of the two
    when nothing says (None)."""
    if tense is not None:
        return back if tense else ahead
    return min((d for d in (back, ahead) if d is not None), key=lambda d: abs(d - said), default=None)


_ONLY_A_HOLIDAY = re.compile(r"\W*(?:(?:and|now|so|then|ok|okay|right)\s+)*(?:" + _HOLIDAY_NAMES + r")\W*", re.IGNORECASE)


def only_a_day(sentence: str, said_at: datetime | None) -> bool:
    """Whether a sentence only names a day ("5 August.", "Yesterday!", "지난주 금요일."): the time
    of the news that follows it."""
    if said_at is None:
        return False
    rest = sentence = ko_spoken_dates(sentence)
    for r in sorted(find(sentence, said_at), key=lambda r: r.start, reverse=True):
        rest = rest[: r.start] + " " + rest[r.end:]
    return not re.search(r"\w", re.sub(r"(?i)\b(?:on|at|in|the|and|then|so|of)\b|에|요|[ㅋㅎㅠ]", " ", rest))


_A_WEEKDAY_OR_PART = r"(?i:(?:" + "|".join(_WEEKDAYS) + r")(?:\s+" + _DAYPART + r")?)"  # ("Thursday", "Thursday night")
_ONLY_A_WEEKDAY = re.compile(_A_WEEKDAY_OR_PART + r"(?:[.!?\s\ufe0f]|" + EMOJI + r")*")


def only_a_weekday(sentence: str) -> bool:
    """Whether a sentence only names a weekday, or its part of the day ("Saturday.", "friday!", "Thursday night.",
    "saturday 😢")."""
    return _ONLY_A_WEEKDAY.fullmatch(sentence) is not None


# A weekday opening a sentence, set off by its comma, before what happened then ("Wednesday, Dr. Lavoie at the GMF").
_OPENS_ON_A_WEEKDAY = re.compile(r"(?i:on\s+)?" + _A_WEEKDAY_OR_PART + r"(?:\s*,|\s+(?=(?i:at|in)\s))")


def opens_on_a_weekday(sentence: str) -> bool:
    """Whether a sentence opens on a weekday, or its part of the day, set off by a comma or followed by where ("Wednesday,
    Dr. Lavoie at the GMF on Masson", "Thursday night, 4 steps between the couch and Sophie", "On Saturday at the
    competition in Mafeteng")."""
    return _OPENS_ON_A_WEEKDAY.match(sentence) is not None


def only_a_holiday(sentence: str) -> bool:
    """Whether a sentence only names a holiday ("and christmas.", "now Christmas."): a topic opened, no fact."""
    return _ONLY_A_HOLIDAY.fullmatch(sentence) is not None


def easter(year: int) -> date:
    """Easter Sunday of ``year`` (Gregorian; the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    h = (19 * a + b - b // 4 - (b - (b + 8) // 25 + 1) // 3 + 15) % 30
    moon = (32 + 2 * (b % 4) + 2 * (c // 4) - h - c % 4) % 7
    shift = (a + 11 * h + 22 * moon) // 451
    return date(year, (h + moon - 7 * shift + 114) // 31, (h + moon - 7 * shift + 114) % 31 + 1)


# What makes a holiday the coming one: a plan or a wish ("maybe visit Brazil at Christmas", "book my
# flights for Christmas", "wants to visit the class at Halloween").
_HOLIDAY_AHEAD = re.compile(r"\b(?:will|'ll|going to|gonna|planning|plan|maybe|might|hope|hoping|want|wants|would|"
                            r"book|booked|booking|until|till)\b", re.IGNORECASE)


def _holiday_on(name: str) -> Callable[[int], list[date]]:
    """The days of a holiday in a given year (one, but for the bank holiday Mondays)."""
    if name in _BANK_HOLIDAY_MONDAYS:
        return lambda year: [easter(year) + timedelta(days=1), _nth_weekday(year, 5, 0, 1), _nth_weekday(year, 5, 0, -1),
                             _nth_weekday(year, 8, 0, -1)]
    if name in _WEEKDAY_HOLIDAYS:
        month, weekday, nth = _WEEKDAY_HOLIDAYS[name]
        return lambda year: [_nth_weekday(year, month, weekday, nth)]
    month, day = _HOLIDAYS[name]
    return (lambda year: [easter(year) + timedelta(days=month)]) if day == 0 else (lambda year: [date(year, month, day)])


def _holiday_title(name: str) -> str:
    """A holiday's name as it is written ("Boxing Day", "the Fourth of July", "Day of Reconciliation")."""
    return " ".join(w if w in ("of", "the") else w.capitalize() for w in name.split())


def _holiday(name: str, said: date, past: bool | None, beside: tuple[str, str] | None = None) -> tuple[str, str]:
    """A holiday's day: the one gone by (``past``), the coming one (False), or the nearer (None):
    a holiday is far apart from its next, so "got it for my ps5 for christmas" on 2 January and
    "we're at my mum's for christmas day" in November each mean the nearer one, whatever the tense.
    ``beside``: a weekday (or "day") and "before" or "after" ("the Friday before Christmas", "the day
    after Boxing Day"): that day next to it."""
    on = _holiday_on(name)
    if past is None and name in _BANK_HOLIDAY_MONDAYS:
        past = False  # (weeks apart, not months: the coming one, unless the tense says it is gone)
    days = [d for year in (said.year - 1, said.year, said.year + 1) for d in on(year)]
    found = min((d for d in days if past is None or (d <= said if past else d >= said)), key=lambda d: abs((d - said).days))
    if beside is None:
        return f"{_holiday_title(name)} ({day_text(found)})", found.isoformat()
    weekday, side = beside
    step = -1 if side == "before" else 1
    d = found + timedelta(days=step) if weekday == "day" else _weekday(found, _WEEKDAYS.index(weekday), step)
    return f"the {weekday if weekday == 'day' else weekday.capitalize()} {side} {_holiday_title(name)} ({day_text(d)})", d.isoformat()


def _nth_of(year: int, month: int, nth: int) -> date | None:
    """The ``nth`` day of the month, None when the month is shorter."""
    return date(year, month, nth) if nth <= calendar.monthrange(year, month)[1] else None


def _days_of_month(said: date, nth: int, past: bool) -> Iterator[date]:
    """The ``nth`` of the month ``said`` is in, or of the next (the last) two, on or after
    (before) ``said``: the nearest first."""
    for k in (0, -1, -2) if past else (0, 1, 2):
        d = _nth_of(*_add_months(said, k), nth)
        if d is not None and ((d <= said) if past else (d >= said)):
            yield d


# A weekday named beside a date ("thursday october 16th", "friday the 10th", "Sat 12th") says which
# year or month it is in, whatever the tense ("i booked the flights, we fly thursday october 16th"):
# the nearest such day that falls on it (of the month named, within a year either way; of a day
# of the month alone, within half a year).
_WEEKDAY_BESIDE = re.compile(r"\b(" + "|".join([*_WEEKDAYS, *_WEEKDAY_ABBREVIATIONS]) + r")\.?,?\s+(?:the\s+)?$", re.IGNORECASE)
_AGREEING_MONTHS = 6


_KO_WEEKDAY_AFTER = re.compile(r"\s*([월화수목금토일])(?:요일|욜)")


def _ko_weekday_after(text: str, end: int) -> int | None:
    """The weekday named right after the Korean date ending at ``text[end]`` ("5월 3일 토요일"), if one is."""
    m = _KO_WEEKDAY_AFTER.match(text, end)
    return None if m is None else _ko_weekday(m.group(1))


# ... or right after it, set off ("joining on 17th March, Monday", "the 5th (a Wednesday)").
_WEEKDAY_AFTER = re.compile(r"\s*[,(]\s*(?:a\s+|on\s+a\s+)?(" + "|".join([*_WEEKDAYS, *_WEEKDAY_ABBREVIATIONS]) + r")\b\.?(?!\s+(?:the\s+)?\d)",
                            re.IGNORECASE)


_KO_COMING = re.compile(r"(?<![가-힣])(?:돌아|다가)?오는\s*$")
_DAY_AS_SUBJECT = re.compile(r"(?:\s+(?:" + _DAYPART + r"))?\s+" + _DAY_IS_SUBJECT_OF + r"\b", re.IGNORECASE)


def _weekday_beside(text: str, start: int, end: int) -> int | None:
    """The weekday (0 for Monday) named right before ``text[start:end]``, or set off right after it, if one is."""
    m = _WEEKDAY_BESIDE.search(text, 0, start) or _WEEKDAY_AFTER.match(text, end)
    return None if m is None else _weekday_number(m.group(1))


def _on_weekday(said: date, weekday: int, nth: int, month: int | None = None) -> date | None:
    """The ``nth`` of ``month`` (within a year of ``said``) or of any month (within half a year) that
    falls on ``weekday``, the nearest ``said`` first, if one does."""
    days = ((_nth_of(year, month, nth) for year in (said.year - 1, said.year, said.year + 1)) if month is not None
            else (_nth_of(*_add_months(said, k), nth) for k in range(-_AGREEING_MONTHS, _AGREEING_MONTHS + 1)))
    return min((d for d in days if d is not None and d.weekday() == weekday), key=lambda d: abs(d - said), default=None)


# A day of a month said with a past verb is the one gone by, unless that is most of a year ago and
# the one to come is weeks away: then the past is the arranging ("PayNest confirmed my joining on
# 17th March", "2월 1일자로 발령 났다", both said weeks before). A year-old day is said with its year
# or "last year".
_YEAR_AGO_DAYS = 300
_SOON_DAYS = 62


def _resolve_partial(m: re.Match[str], said: date, tense: bool | None, korean: bool,
                     weekday: int | None = None) -> tuple[str, str] | None:
    """The date a partial one means, said on ``said``: gone by when ``tense`` is past (True), to
    come when not, and for a day of a month, the nearer of the two when nothing says (None).
    ``weekday``: the one named beside a day of a month ("Friday the 10th", "23일 수욜"), which says
    which month or year it is in."""
    past = bool(tense)

    def of_year(month: int, day: int) -> date | None:  # (that day of the year, by the tense)
        back, ahead = _partial_day(said, month, day, True), _partial_day(said, month, day, False)
        if tense and back is not None and ahead is not None and (said - back).days > _YEAR_AGO_DAYS and (ahead - said).days <= _SOON_DAYS:
            return ahead  # (what was done is the arranging: "2월 1일자로 발령 났다", said in January)
        return _by_tense(said, tense, back, ahead)

    if not korean and m["dn"]:  # "the 26th": of the month it was said in, or the next (the last) one
        nth = int(re.sub(r"\D", "", m["dn"]))
        d = (_on_weekday(said, weekday, nth) if weekday is not None else None) or next(_days_of_month(said, nth, past), None)
        return None if d is None else _nth_text(m, d)
    if m["wd"] or (not korean and (m["wda"] or m["wdb"])):
        weekday = _ko_weekday(m["wd"]) if korean else _weekday_number(m["wd"] or m["wda"] or m["wdb"])  # "on tues" too
        back, ahead = _weekday(said, weekday, -1), _weekday(said, weekday, 1)
        coming = korean and _KO_COMING.search(m.string, 0, m.start()) is not None  # ("돌아오는 화요일에 들으러 감")
        d = ahead if coming else _by_tense(said, tense, back, ahead) or ahead
        if korean:
            return ko_day_text(d), d.isoformat()
        on = "" if _DAY_AS_SUBJECT.match(m.string, m.end()) else "on "  # ("Friday 27 June 2025 was my last shift")
        return f"{on}{_WEEKDAYS[weekday].capitalize()} {day_text(d)}", d.isoformat()
    if korean and m["kd"]:  # 24일: of the month it was said in, or the next (the last) one
        nth = int(m["kd"])  # (and with its weekday, "23일 수욜", the nearest 23rd that is a Wednesday)
        d = (_on_weekday(said, weekday, nth) if weekday is not None else None) or _by_tense(
            said, tense, next(_days_of_month(said, nth, True), None), next(_days_of_month(said, nth, False), None))
        return None if d is None else (ko_day_text(d), d.isoformat())
    if korean and (m["kh"] or m["kl"]):  # (gone by when its clause is past, else the nearer, as a holiday in English;
        name, side = m["kh"] or m["kl"], m["kl"] and m["kls"]  # on the lunar calendar too, and the day beside it)
        days = _lunar_days(name, said) if m["kl"] else (_partial_day(said, *_KO_HOLIDAYS[name], True),
                                                        _partial_day(said, *_KO_HOLIDAYS[name], False))
        d = _by_tense(said, True if tense else None, *days)
        if d is None:
            return None
        d += timedelta(days=_KO_HOLIDAY_SIDES.get(side or "", 0))
        return f"{name}{' ' + side if side else ''}({ko_day_text(d)})", d.isoformat()
    if korean and m["km"]:
        month = int(m["km"])
        years = [said.year, said.year - 1 if month > said.month else said.year + 1 if month < said.month else said.year]
        year = (years[0] if (month <= said.month) == past or month == said.month else years[1]) if tense is not None else min(
            years, key=lambda y: abs((y - said.year) * 12 + month - said.month))
        if past and (said.year - year) * 12 + said.month - month > _KO_MONTH_BACK:
            year = said.year  # (a bare month long gone is this year's: "11월에 하프마라톤 신청했어", said in September)
        return f"{year}년 {month}월", f"{year}-{month:02d}"
    if korean:  # (with the weekday after it, "5월 3일 토요일", the year where it falls on that day)
        month, nth = int(m["m"]), int(m["d"])
        found = (_on_weekday(said, weekday, nth, month) if weekday is not None else None) or of_year(month, nth)
        return (ko_day_text(found), found.isoformat()) if found else None
    if m["m3"]:
        past = past or m["lead"].lower() == "since"  # ("17 pounds down since January": gone by)
        month = month_number(m["m3"])
        year = said.year + (0 if (month <= said.month if past else month >= said.month) else (-1 if past else 1))
        return f"{m['lead']} {month_text(year, month)}", f"{year}-{month:02d}"
    month_name, day = (m["m1"], m["d1"]) if m["m1"] else (m["m2"], m["d2"]) if m["m2"] else (m["m4"], m["d4"])
    month, nth = month_number(month_name), int(day)
    found = (_on_weekday(said, weekday, nth, month) if weekday is not None else None) or of_year(month, nth)
    return (day_text(found), found.isoformat()) if found else None


# "It feels like only yesterday", "입학한 게 어제 같은데": how recent it feels, not when it was
# ("어제 같이 먹었어요" is "we ate together yesterday").
_LIKE_BEFORE = re.compile(r"\blike\s+(?:only\s+|just\s+|it\s+was\s+(?:only\s+|just\s+)?)?$", re.IGNORECASE)
_LIKE_AFTER = re.compile(r"\s*(?:같은|같아|같다|같네|같더|같습)")


# A date after a preposition reads without its own "on"/"in" ("the end of April 2024"); after
# "since" it is gone by, whatever the tense ("off his food since Monday").
_AFTER_PREPOSITION = re.compile(r"\b(of|since|from|until|till|til|by|before|after|for|to)\s+$", re.IGNORECASE)
# A day something is moved to ("they have it moved to june the 9th", "pushed back to the 16th",
# "rescheduled for Friday") is ahead, whatever the tense of the moving.
# So is the day something is fixed for ("registration fixed for 3rd April", "scheduled for Friday").
_MOVED_TO = re.compile(r"\b(?:(?:moved|postponed|pushed|put|rescheduled|changed|switched|brought|bumped|delayed|shifted|preponed)"
                       r"(?:\s+(?:back|forward|out|on))?\s+(?:to|for|till|until)"
                       r"|(?:fixed|scheduled|booked|set|slated|planned|confirmed)\s+for)\s+$", re.IGNORECASE)
# ... and so is the day of a plan that did not happen ("we were supposed to go to Fort Myers in
# October", said in August: the October to come), though its verb is past.
_UNREALISED = re.compile(r"\b(?:supposed to|(?:was|were) (?:meant|gonna|planning) to|(?:had )?planned to"
                         r"|(?:was|were) going to (?:go|fly|drive|travel|visit|see|take|have|move|start|do)\b)[^.!?]*$",
                         re.IGNORECASE)


def find(text: str, said_at: datetime, asked: str | None = None, month: str | None = None) -> list[Resolved]:
    """Every relative time expression in ``text`` resolved against ``said_at`` (in order), and
    every date that leaves out its year or week (resolved by the tense of ``text``, or of the
    question it answers, ``asked``, when its own clause has none). ``month`` ("2025-03"): the
    month of the date the message named before ``text``, which a day of the month alone takes
    ("3월 10일부터 13일까지요. 아 아니다, ... 12일까지만 일정이에요")."""
    said = said_at.date()
    out = []
    for pattern, resolve in ((_EN, _resolve_en), (_KO, _resolve_ko)):
        for m in pattern.finditer(text):
            if m.group("yesterday") and (_LIKE_BEFORE.search(text, 0, m.start()) or _LIKE_AFTER.match(text, m.end())):
                continue
            found = resolve(m, said)
            if found is not None:
                out.append(Resolved(m.start(), m.end(), *found))
    for pattern, korean in ((_EN_PARTIAL, False), (_KO_PARTIAL, True)):
        for m in pattern.finditer(text):
            if any(r.start < m.end() and m.start() < r.end for r in out) or (
                    korean and (m["kh"] or m["kl"]) and any(not text[r.end: m.start()].strip() for r in out)):
                continue  # "last Thursday" is resolved already (and "3월 1일 삼일절" is that day)
            earlier = max((r for r in out if r.end <= m.start() and len(r.when) == 10), key=lambda r: r.end, default=None)
            if korean and m["kd"]:
                joined = _ko_day_of(text, m, out)
                if joined is not None:  # "다음달 3일", "8월 11일부터 24일까지": the day of the month named before it
                    out[:] = [r for r in out if r is not joined[0]] + [joined[1]]
                    continue
            after = None if korean else _AFTER_PREPOSITION.search(text, 0, m.start())
            since = after is not None and after.group(1).lower() == "since"
            gone = since or (after is not None and after.group(1).lower() == "from")  # (a holiday's leftovers)
            moved = (_KO_MOVED_TO.match(text, m.end()) is not None or _KO_PLANNED.search(text) is not None) if korean else (
                _MOVED_TO.search(text, 0, m.start("dn") if m["dn"] else m.start()) is not None
                or _UNREALISED.search(text, 0, m.start()) is not None)
            alone = korean and not _KO_LEFT.sub("", text[: m.start()] + text[m.end():]).strip()  # ("5월 말에", "목요일에")
            past = since or (not moved and (None if alone else (_ko_clause_past if m["km"] or m["kh"] or m["kl"] else _ko_past_at)(text, m.end()) if korean else _tense_at(
                text, m.start(), m.end(), None if earlier is None else earlier.when < said.isoformat(), asked,
                coming=text[m.start():m.start() + 5].lower() == "this ")))
            if not korean and m["hol"]:
                rel = (m["hrel"] or "").strip().lower()
                clause = text[slice(*_clause(text, m.start(), m.end()))]
                # a past verb of its own says the one gone by ("It was Good Friday"; not texting's "were", we're)
                done = any(not clause[i:].lower().startswith("were") for i in _past_at(clause))
                found = _holiday(m["hol"].lower(), said, rel == "last" if rel else True if gone
                                 else False if _HOLIDAY_AHEAD.search(text) else True if done else None,
                                 (m["hwd"].lower(), m["hside"].lower()) if m["hwd"] else None)
            else:
                # (the month named before it in the sentence: "8월에 연차 맞춰 냈어 8일부터")
                named = max((r for r in out if r.end <= m.start() and len(r.when) == 7), key=lambda r: r.end, default=None)
                # (... or the day named before it: "to phoenix 14 August, coming home the 19th")
                near = earlier if not korean and m["dn"] and (named is None or earlier is not None and earlier.end > named.end) else None
                # (a Korean weekday whose nominal ending tells no tense, after a day the sentence named: the first
                # such weekday after that day, "지난주 목요일 팀 회식하고 금요일 새벽 3시에 ... 응급실 감")
                after_day = date.fromisoformat(earlier.when) if korean and m["wd"] and past is None and earlier is not None else None
                found = (_day_near(near.when, m) if near is not None else _day_of(named.when, m, korean) if named
                         else _day_of_agreeing(month, m, korean, said, past)) or _resolve_partial(
                    m, after_day or said, False if after_day else past, korean,
                    _ko_weekday_after(text, m.end()) if korean else _weekday_beside(text, m.start("dn") if m["dn"] else m.start(), m.end()))
            if found is not None:
                out.append(Resolved(m.start(), m.end(), *found))
    return sorted(out, key=lambda r: r.start)


def _day_of_agreeing(month: str | None, m: re.Match[str], korean: bool, said: date,
                     past: bool | None) -> tuple[str, str] | None:
    """``_day_of`` the month an earlier sentence's date fell in, unless the tense says otherwise: "Had
    the MRI Friday. Seeing a surgeon on the 11th" is the 11th to come, not January's gone by (in
    English: a Korean plan's tense is its making, "17일부터 가려고 했는데")."""
    found = _day_of(month, m, korean)
    if found is None or korean or past is None or (found[1] <= said.isoformat()) == past:
        return found
    return None


def _day_near(when: str, m: re.Match[str]) -> tuple[str, str] | None:
    """An English day of the month alone said after a date in the same message: the nearest such
    day to it ("14 August, coming home the 19th" is 19 August; "the 5th, that weekend, the 4th through
    the 6th" stays in the 5th's month; "the 28th to 2 March" is February's 28th)."""
    base = date.fromisoformat(when)
    nth = int(re.sub(r"\D", "", m["dn"]))
    days = [d for k in (-1, 0, 1) for y, mo in [divmod(base.year * 12 + base.month - 1 + k, 12)]
            if (d := _nth_of(y, mo + 1, nth)) is not None]
    d = min(days, key=lambda d: (abs((d - base).days), d < base), default=None)
    return None if d is None else _nth_text(m, d)


def _day_of(month: str | None, m: re.Match[str], korean: bool) -> tuple[str, str] | None:
    """A day of the month alone ("12일", "the 12th") in the ``month`` named before it, if any."""
    nth = m["kd"] if korean else m["dn"]
    if month is None or nth is None:
        return None
    d = _nth_of(int(month[:4]), int(month[5:7]), int(re.sub(r"\D", "", nth)))
    if d is None:
        return None
    return (ko_day_text(d), d.isoformat()) if korean else _nth_text(m, d)


def _nth_text(m: re.Match[str], d: date) -> tuple[str, str]:
    """An English day of the month alone ("on the 14th", "the 19th") written as the date ``d`` it
    means, with the word that led it ("on 14 March 2024"), and its sortable value."""
    return f"{m['dlead'] or ''}{day_text(d)}", d.isoformat()


_KO_SPAN = re.compile(r"(?:\s|부터|에서|~|-|[월화수목금토일](?:요일|욜))*")  # (and the first day's weekday)


def _ko_day_of(text: str, m: re.Match[str], out: list[Resolved]) -> tuple[Resolved | None, Resolved] | None:
    """A Korean day of the month alone right after a month or a date ("다음달 3일", "8월 11일부터
    24일까지", "11월 21일 금요일부터 23일까지"): that day of the month named (the one replaced), or of
    the date's month (the later day of a span, in the next month if the day is smaller). None when
    nothing names its month."""
    before = max((r for r in out if r.end <= m.start() and _KO_SPAN.fullmatch(text, r.end, m.start())),
                 key=lambda r: r.end, default=None)
    if before is None or len(before.when) not in (7, 10):
        return None
    year, month = int(before.when[:4]), int(before.when[5:7])
    nth = int(m["kd"])
    if len(before.when) == 10 and nth <= int(before.when[8:]):
        year, month = _add_months(date(year, month, 1), 1)
    d = _nth_of(year, month, nth)
    if d is None:
        return None
    if len(before.when) == 7:  # the month and its day are one date
        return before, Resolved(before.start, m.end(), ko_day_text(d), d.isoformat())
    return None, Resolved(m.start(), m.end(), ko_day_text(d), d.isoformat())


# Said between two dates, the second corrects the first ("Sunday, no wait, Saturday", "12일에, 아
# 아니다 13일에").
_CORRECTION = re.compile(r"(?:에|에는|은|는|요|이요)?[\s,.]*(?:(?:no|nope)(?:[\s,]+wait)?|wait[\s,]+no|sorry|I mean|(?:아\s*)?아니(?:다|지|요)?)\b[\s,.]*$",
                         re.IGNORECASE)


# Korean months and days said in words, as voice input and older texters write them: 유월, 시월,
# 십일월; 이십삼일 (Sino-Korean) before 날, 에, 로, 부터...; 초닷새, 열엿샛날, 스무날 (the native count of
# a month's days). Not a span ("사흘 동안", "삼일 동안"), nor 삼일절.
_KO_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "유": 6, "칠": 7, "팔": 8, "구": 9}
_KO_NATIVE_DAYS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "닷샛": 5, "엿새": 6, "엿샛": 6, "이레": 7, "여드레": 8,
                   "아흐레": 9}
_KO_SPOKEN_MONTH = re.compile(r"(?<![가-힣\d])(십일|십이|일|이|삼|사|오|유|칠|팔|구|시)월(?=\s*(?:[\d가-힣]+일|초|중순|말|에|부터|까지|달"
                              r"|로(?![가-힣])|첫째|둘째|셋째|넷째|마지막)(?![가-힣]*절))")
_KO_SPOKEN_DAY = re.compile(r"(?<![가-힣\d])((?:이|삼)?십)?(일|이|삼|사|오|육|칠|팔|구)?일(?=날|에|로|부터|까지|이[라래야요고었니다]|[,.\s]*$"
                            r"|\s*[월화수목금토일](?:요일|욜))"
                            r"|(?<![가-힣\d])(초|열|스무)(하루|이틀|사흘|나흘|닷새|닷샛|엿새|엿샛|이레|여드레|아흐레|열흘|날)(?:날)?"
                            r"|(?<![가-힣\d])(엿샛날|닷샛날|열흘날)")


def _spoken_day(m: re.Match[str]) -> str:
    if m[3]:
        base = {"초": 0, "열": 10, "스무": 20}[m[3]]
        return f"{base + (10 if m[4] == '열흘' else 0 if m[4] == '날' else _KO_NATIVE_DAYS[m[4]])}일"
    if m[5]:
        return f"{ {'엿샛날': 6, '닷샛날': 5, '열흘날': 10}[m[5]] }일"
    if not m[1] and not m[2]:
        return m[0]  # ("일" alone is a word)
    tens = 0 if not m[1] else 10 * (_KO_SINO[m[1][0]] if len(m[1]) == 2 else 1)
    return f"{tens + (_KO_SINO[m[2]] if m[2] else 0)}일"


# Weekdays as dialects spell them (Yorkshire and Lancashire "Tuesdi", "Sat'dy", Scots "Setterday") and
# the night as Yorkshire says it ("Tuesdi neet", "last neet", "t'neet" for tonight).
_DIALECT_DAYS = [(re.compile(r"\b(?:" + spelt + r")\b", re.IGNORECASE), day) for spelt, day in (
    (r"mon(?:di|dy)", "monday"), (r"tue?s(?:di|dy)|tewsdi|chewsday", "tuesday"),
    (r"wed(?:nes)?(?:di|dy)|wen[sz](?:di|dy|day)", "wednesday"), (r"thur[sz]?(?:di|dy)", "thursday"),
    (r"fri(?:di|dy)", "friday"), (r"sat['\u2019]?(?:di|dy|day|dee)|satur(?:di|dy)|s[ae]tterday|saterday", "saturday"),
    (r"sun(?:di|dy)", "sunday"), (r"t['\u2019]neet|toneet", "tonight"), (r"neet", "night"),
    # ... and as Scots and Doric say them: "the nicht" (tonight), "a fortnicht on Tuesday", "the morn" and
    # "the morn's morn" (tomorrow, and its morning; not "the morning")
    # (not "up for da nicht", the night; nor "da morn eftir", the morning after)
    (r"(?<!for\s)(?:the|da)\s+nicht", "tonight"), (r"nicht", "night"), (r"fortnicht", "fortnight"),
    (r"(?:the|da)\s+morn['\u2019]s\s+morn", "tomorrow morning"), (r"(?:the|da)\s+morn(?!['\u2019]s)(?!\s+(?:eftir|after)\b)", "tomorrow"),
    # ... and as Shetland says the rest ("da morn", "last ook", "a fortnight syne": ago)
    (r"(?<=\blast\s)ook|(?<=\bnext\s)ook|(?<=\bthis\s)ook|(?<=\bdis\s)ook|(?<=\ba\s)ook", "week"),
    (r"a\s+fortnight\s+(?:ago|syne)", "two weeks ago"), (r"(?<=days\s)syne|(?<=weeks\s)syne|(?<=months\s)syne|(?<=years\s)syne"
                                                          r"|(?<=day\s)syne|(?<=week\s)syne|(?<=month\s)syne|(?<=year\s)syne", "ago"),
    (r"shabb[ao]s|shabbat", "saturday"),  # (the Jewish sabbath, by its day: "the Shabbos after next")
    # ... and the other days as Hebrew numbers them, in Israeli English ("on yom shishi, in the middle of the lunch")
    (r"yom\s+rishon", "sunday"), (r"yom\s+sheni", "monday"), (r"yom\s+shlishi", "tuesday"), (r"yom\s+revi['\u2019]?i", "wednesday"),
    (r"yom\s+[ck]?hamishi", "thursday"), (r"yom\s+shishi", "friday"),
    # ... and as Swahili names the days, in Kenyan and Tanzanian English ("Jumamosi", Sheng's "this Sato")
    (r"jumatatu", "monday"), (r"jumanne", "tuesday"), (r"jumatano", "wednesday"), (r"alhamisi", "thursday"),
    (r"ijumaa", "friday"), (r"jumamosi|(?<=\bthis\s)sato|(?<=\bon\s)sato|(?<=\bnext\s)sato|(?<=\blast\s)sato", "saturday"),
    (r"jumapili", "sunday"),
    # ... and the days next to today as Tagalog and Cebuano say them in Filipino English ("gahapon ni adto ko sa
    # Oceanline", "kahapon sa Scarborough Town Centre", "bukas 7am"; not "bukas pa ba", still open?)
    (r"kahapon|gahapon", "yesterday"), (r"kagabi", "last night"), (r"ugma|bukas(?!\s+(?:pa|ba)\b)", "tomorrow"),
    # ... and "this", "next" and "last" as Hawai'i Pidgin and Caribbean English write them before a time ("dis past
    # saturday", "nex week", "las sunday")
    *((word + r"(?=\s+(?:past|coming|week|weekend|month|year|" + "|".join(_WEEKDAYS) + r")\b)", full)
      for word, full in (("dis", "this"), ("nex", "next"), ("las", "last"))))]


# Calendar words in 漢字, as older Korean writers mix them in ("지난 金曜日에", "來週 月曜日", "來月 中旬",
# "四月 二十日", "昨日"): written in Hangul, so the days they name are read as the Hangul ones are. (Only
# the calendar's words: other 漢字 stay as written.)
_HANJA_CALENDAR = [(re.compile(spelt), plain) for spelt, plain in (
    (r"[來来]週|次週|翌週", "다음 주"), (r"今週", "이번 주"), (r"[先前去]週|지난\s*週", "지난주"),
    (r"[來来]月|翌月", "다음 달"), (r"今月", "이번 달"), (r"[先前去]月", "지난달"),
    (r"再昨年", "재작년"), (r"[昨去]年|前年", "작년"), (r"今年", "올해"), (r"[來来明]年|翌年", "내년"),
    (r"昨夜", "어젯밤"), (r"今夜", "오늘 밤"), (r"昨日", "어제"), (r"今日", "오늘"), (r"[明來来]日|翌日", "내일"),
    (r"上旬", "상순"), (r"中旬", "중순"), (r"下旬", "하순"), (r"[月年]末", "말"), (r"週末", "주말"), (r"初(?=\d)", "초"),
    (r"陰曆|陰暦", "음력"), (r"陽曆|陽暦", "양력"))]
# (and the Japanese の between such a word and the day it narrows: "来週の水曜日", "来月の15日")
_HANJA_NO = re.compile(r"(?<=[주달년해제늘일월])\s*の\s*")
# A weekday in 漢字 is written in Hangul where it names a day: after a week or a date ("來週 月曜日", "지난 金曜日")
# or before its particle ("金曜日에"). Elsewhere it stays as written, as an answer would quote it
# ("4월부터 木曜日 저녁 7시": every week).
_HANJA_WEEKDAY = re.compile(r"(?<=[주난번음일])(\s*)([月火水木金土日])(?:曜日|요일)"
                            r"|([月火水木金土日])(?:曜日|요일)(?=에|부터|날|자로|로|까지|은|는|이)")
_HANJA_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_HANJA_COUNT = re.compile(r"([〇零一二三四五六七八九十百千]+)\s*(?=[年月日](?![\u4e00-\u9fff])|년|월|일(?![가-힣])|개월)")


def _hanja_number(m: re.Match[str]) -> str:
    """A number in 漢字 (二十, 三百五十, 二〇二五) in figures."""
    chars, total, digits = m[1], 0, ""
    if all(c in _HANJA_DIGITS for c in chars):  # digit by digit, as years are written ("二〇二五")
        return "".join(str(_HANJA_DIGITS[c]) for c in chars)
    for c in chars:
        if c in _HANJA_DIGITS:
            digits += str(_HANJA_DIGITS[c])
        else:
            total += int(digits or "1") * {"十": 10, "百": 100, "千": 1000}[c]
            digits = ""
    return str(total + int(digits or "0"))


def _hanja_dates(text: str) -> str:
    """``text`` with its calendar words in 漢字 written in Hangul (``_HANJA_CALENDAR``)."""
    if not re.search(r"[\u4e00-\u9fff]", text):
        return text
    text = _HANJA_COUNT.sub(_hanja_number, text)
    for spelt, plain in _HANJA_CALENDAR:
        text = spelt.sub(plain, text)
    text = _HANJA_NO.sub(" ", re.sub(r"(\d)\s*([年月日])", lambda m: m[1] + "년월일"["年月日".index(m[2])], text))
    return _HANJA_WEEKDAY.sub(lambda m: (m[1] or "") + "월화수목금토일"["月火水木金土日".index(m[2] or m[3])] + "요일", text)


# "not this friday the one after", "not this monday, the one after", Shetland "no dis Tuesday but da next
# een": the weekday after next.
# (and Cape Breton's "not this Monday coming but the Monday after")
_NOT_THIS_ONE_AFTER = re.compile(r"\b(?:not|no)\s+(?:this|on)\s+(" + "|".join([*_WEEKDAYS, *_WEEKDAY_ABBREVIATIONS]) + r")\b(?:\s+coming\b)?[\s,.;:-]*"
                                 r"(?:but\s+)?(?:the|da)\s+(?:(?:one|een|" + "|".join(_WEEKDAYS) + r")\s+after|next\s+(?:one|een))\b"
                                 r"(?!\s+(?:that|next)\b)", re.IGNORECASE)


def dialect_days(text: str) -> str:
    """``text`` with weekdays and nights spelt as dialects speak them written as English writes them
    (``_DIALECT_DAYS``), in the case they were written in, "not this friday the one after" as the
    "friday after next" it is, and Korean calendar words in 漢字 in Hangul (``_hanja_dates``)."""
    text = _hanja_dates(text)
    for spelt, day in _DIALECT_DAYS:
        text = spelt.sub(functools.partial(_as_written, day), text)
    text = _KAL.sub(lambda m: _as_written("yesterday" if tells_a_past(m[1]) else "tomorrow", m), text)
    text = _PARSO.sub(_parso, text)
    text = _BEFORE_SO_LONG.sub(_ago, text)
    text = _BARE_AGO.sub(lambda m: "a " + m.group(0), text)
    return _NOT_THIS_ONE_AFTER.sub(r"\1 after next", text)


# "Week ago" without its article, as learners whose tongues have none write it ("bees OUT! week ago we take all
# hives from omshanik"): a week ago (not "a week ago", "two week ago", "the week ago").
_BARE_AGO = re.compile(r"(?<![\w,]\s)\b(?i:week|month|year)\s+ago\b")


# "Before two weeks" for "two weeks ago", as learners from tongues that say it so write it (Bosnian "prije
# dvije sedmice", Romanian "acum două zile", German "vor zwei Wochen"), ending its clause: "we had hail storm
# before two weeks", "Is mine from before two days". Only in a clause told in the past, or after "from": "no
# inap kisim leave before 3 months" is a time not yet passed.
_BEFORE_SO_LONG = re.compile(r"\b(from\s+)?before\s+((?:" + _N + r")\s+(?:" + _UNIT + r")s?)"
                             r"(?=\s*(?:[.,!?;)]|$))", re.IGNORECASE | re.MULTILINE)


def _ago(m: re.Match[str]) -> str:
    """What ``m`` (``_BEFORE_SO_LONG``) says, as English says it: "two weeks ago" in a past, else as said."""
    clause = re.split(r"[.!?\n]", m.string[: m.start()])[-1]
    return f"{m[1] or ''}{m[2]} ago" if m[1] or tells_a_past(clause) else m[0]


# ... and "parso", two days off either way: as its own clause's tense says ("parso we went"), else the
# news it dates just before it ("Navi passed!!! Parso only!", "Store got robbed. Parso night, Sunday"),
# else left as said.
_PARSO = re.compile(r"(?<!the )\b(?i:parso)\b(?=([^.!?\n]*))")


def _parso(m: re.Match[str]) -> str:
    """The day ``m`` (``_PARSO``) names, written as English says it: its own clause to come ("parso we
    are driving"), else a past in it or in the news just before it ("got robbed. Parso night")."""
    before = re.split(r"[.!?\n]\W*(?=\w)", m.string[: m.start()].rstrip(" .!?\n"))[-1]
    if tells_to_come(m[1]):
        return _as_written("the day after tomorrow", m)
    if tells_a_past(m[1]) or tells_a_past(before):
        return _as_written("the day before yesterday", m)
    return _as_written("the day after tomorrow", m) if tells_to_come(before) else m[0]


def tells_to_come(text: str) -> bool:
    """Whether an English ``text`` has a verb of what is to come or going on ("we are driving")."""
    return any(ahead.search(text) for ahead in (_FUTURE_EN, _ABOUT_DOING, _PRESENT_EN))


# Urdu and Hindi "kal", as British Asians and Indians text it: yesterday or tomorrow, as the tense of what
# follows it says ("Kal we all went to Rukhsana baji's", "kal I'm off to Leeds"; capitalised, only before
# whom it tells of: "Kal said he'd come" is someone).
_KAL = re.compile(r"\b(?<!-)(?:kal|KAL|Kal(?=\s+(?i:i|i'm|im|we|me|main|hum|my|our|the|u|you|he|she|they|it|ammi|abbu)\b))\b(?!-)"
                  r"(?=\s+([^.!?\n]+))")


def _as_written(day: str, m: re.Match[str]) -> str:
    """``day`` in the case of the word ``m`` matched ("SATDY": "SATURDAY", "Tuesdi": "Tuesday")."""
    return day.upper() if m[0].isupper() else day.capitalize() if m[0][0].isupper() else day


# Days, weeks and months as offices write them in Korean (금일, 익일, 차주, 전월): the words chat uses.
# A week of them only before what dates it (차주 수요일, 전주 목요일에; 전주 is also the city, 차주 a car's
# owner and 금주 not drinking), and not 전일제 (full-time).
_KO_WEEKDAY_NEXT = r"(?=\s*(?:[월화수목금토일](?:요일|욜)|중에|중으로|내에|내로|초|말))"
_KO_OFFICE = [(re.compile(spelt), plain) for spelt, plain in (
    (r"(?<![가-힣])금일(?![가-힣]*제)", "오늘"), (r"(?<![가-힣])(?:명일|익일)", "내일"), (r"(?<![가-힣])전일(?!제)", "어제"),
    (r"(?<![가-힣])(?:차주|익주|내주)" + _KO_WEEKDAY_NEXT, "다음 주"), (r"(?<![가-힣])전주" + _KO_WEEKDAY_NEXT, "지난주"),
    (r"(?<![가-힣])금주" + _KO_WEEKDAY_NEXT, "이번 주"), (r"(?<![가-힣])(?:익월|차월)", "다음 달"), (r"(?<![가-힣])전월", "지난달"),
    (r"(?<![가-힣])(?:금월|당월)", "이번 달"),
    # ... and as the old say next month (내달 초; not 내달리다, "to dash")
    (r"(?<![가-힣])내달(?![리려린릴렸])", "다음 달"))]
# ... and as voice typing splits them ("그저 께", "엊그 제", "다음 주화 요일", "목 요일")
_KO_DICTATED = [(re.compile(spelt), plain) for spelt, plain in (
    (r"(?<![가-힣])그저\s+께", "그저께"), (r"(?<![가-힣])엊\s*그\s+제|(?<![가-힣])엊\s+그제", "엊그제"),
    (r"(?<=주)([월화수목금토일])\s+요일", r" \1요일"), (r"(?<![가-힣])([월화수목금토일])\s+요일", r"\1요일"))]

# ... and as chat shortens tomorrow ("낼부터 출근", "낼 아침 9시에"): not 낼 of 내다, to pay or hand in ("사직서
# 낼 때까지", "그 돈 낼 바엔", "연차 낼게"), nor 낼 모레 (the day after tomorrow, as 낼모레 is)
_KO_SHORTENED = [(re.compile(r"(?<![가-힣])낼(?=(?:부터|은|이|도)?(?:[\s,.!~]|$))(?!\s*(?:때|바|수|거|것|게|건|줄|테|돈|사람|만큼|필요|모레))"), "내일")]


def ko_spoken_dates(text: str) -> str:
    """``text`` with Korean months and days said in words written in figures (``_KO_SPOKEN_DAY``), and
    the days offices write (``_KO_OFFICE``), voice typing splits (``_KO_DICTATED``) and chat shortens
    (``_KO_SHORTENED``) as chat says them."""
    if not re.search(r"[가-힣]", text):
        return text
    for spelt, plain in (*_KO_OFFICE, *_KO_DICTATED, *_KO_SHORTENED):
        text = spelt.sub(plain, text)
    text = _KO_SPOKEN_DAY.sub(_spoken_day, text)
    return _KO_SPOKEN_MONTH.sub(lambda m: f"{10 if m[1] == '시' else 11 if m[1] == '십일' else 12 if m[1] == '십이' else _KO_SINO[m[1]]}월", text)


# How a holiday's day is written ("추석(2025년 10월 6일)", "Christmas (25 December 2025)"): that day is the
# holiday's, not the month a day alone said after it is of ("올해 추석은 밴쿠버에서 쇠겠다. 베란다 방수공사는
# 15일날 끝났다" is July's 15th; "Christmas was lovely. We fly back the 3rd" is January's).
_HOLIDAY_WRITTEN = re.compile(r"\S\s?\((?:\d{4}년 \d{1,2}월 \d{1,2}일|\d{1,2} [A-Z][a-z]+ \d{4})\)")


def names_a_holiday(resolved: str) -> bool:
    """Whether a resolved text names its day by a holiday (``_HOLIDAY_WRITTEN``)."""
    return _HOLIDAY_WRITTEN.search(resolved) is not None


# A month and day of the lunar calendar ("음력 4월 초엿새", "음력 칠월 보름"), as families keep 제사 and
# birthdays: no day of the calendar resolved here, and the words said kept.
_KO_LUNAR_DATE = re.compile(r"음력\s*(?:\d{1,2}|[가-힣]{1,2})월(?:\s*(?:\d{1,2}일|초?[가-힣]{2,3}(?=[\s.,!?~임이에]|$)))?")


def resolve(text: str, said_at: datetime, asked: str | None = None, month: str | None = None) -> tuple[str, str | None]:
    """``text`` with its relative time expressions replaced by their dates, and the first one's
    sortable value (None when the text names no relative time; a date corrected by the next,
    ``_CORRECTION``, is not the one); ``month`` as in ``find``. Korean dates said in words are
    written in figures first (``ko_spoken_dates``)."""
    lunar = _KO_LUNAR_DATE.findall(text)  # (a day of the lunar calendar is said as it is: held aside)
    text = ko_spoken_dates(dialect_days(_KO_LUNAR_DATE.sub("\x00", text)))
    found = find(text, said_at, asked, month)
    # (one day named twice, as the day it was and its weekday: "어제 월요일에", "the day before yesterday
    # sunday", "tomorrow is saturday"; written once; and today's own weekday is today: "Today Sunday, I am
    # sitting in verandah", not the Sunday to come)
    today = said_at.date()
    for i in range(len(found) - 1, 0, -1):
        between = text[found[i - 1].end: found[i].start].strip(" ,").lower()
        if (between in ("", "is") and found[i - 1].when == today.isoformat() and found[i].when != found[i - 1].when
                and today.strftime("%A").lower() in found[i].text.lower()):
            found[i] = Resolved(found[i].start, found[i].end, f"on {today:%A} {day_text(today)}", today.isoformat())
        if found[i].when == found[i - 1].when and between in ("", "is", "was"):
            fuller = max(found[i - 1].text, found[i].text, key=len)  # ("on Tuesday 14 January 2025")
            found[i - 1: i + 1] = [Resolved(found[i - 1].start, found[i].end, fuller, found[i].when)]
    first = next((r for r, then in itertools.zip_longest(found, found[1:])
                  if then is None or not _CORRECTION.match(text, r.end, then.start)), None)
    for r in reversed(found):
        rendered, end = r.text, r.end
        if text[end : end + 2] in ("'s", "\u2019s"):  # "Tomorrow's the big day": the date is the subject
            rendered, end = re.sub(r"^(?:on|in) ", "", rendered) + " is", end + 2
        elif _AFTER_PREPOSITION.search(text, 0, r.start):  # "the end of next month", "since Monday"
            rendered = re.sub(r"^(?:on|in) ", "", rendered)
        text = text[: r.start] + rendered + text[end:]
    for day in lunar:
        text = text.replace("\x00", day, 1)
    return text, (first.when if first else None)
