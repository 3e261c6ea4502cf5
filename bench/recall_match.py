"""Is the answer in the request? A judge-free matcher, the same for convmem and every baseline.

The rules (docs/benchmarks.md "How recall in a new session is measured"):

1. Both sides are normalised: Unicode NFKC, case folded, dates rewritten to one form
   ('7 May 2023', 'May 7, 2023', '7th of May 2023', '2023-05-07', '2023년 5월 7일' all become
   ``2023-05-07``; 'May 2023' and '2023년 5월' become ``2023-05``; a day without its year, '15 March'
   or '3월 15일', becomes ``0000-03-15``, which that day of any year meets; a month without its year,
   'September', '9월' or '구월', becomes ``0000-09``, which that month of any year and its days
   meet), possessive 's dropped,
   punctuation and whitespace collapsed to single spaces (a hyphen between digits stays).
2. The answer counts when its normalised text occurs in the normalised request at word
   boundaries ('art' is not found in 'party'; '2023-05' is found in '2023-05-07').
   An answer made only of stop words ('no', 'the') is never found: there is nothing to credit.
3. Otherwise, when every content word of the answer occurs in the request (lists such as
   'pottery, camping, painting' and phrases such as 'the adoption agencies'): stop words do
   not count; an English word matches its light stem ('agencies' meets 'agency'); a Hangul word
   matches inside a longer one, so particles do not hide it ('부산' is found in '부산에서').
4. Temporal answers (``resolved_range``): an answer that names a date, a month, a year, or a
   date relative to one ('the Sunday before 25 May 2023', 'the week before 9 June 2023',
   'two days after 3 March 2024') resolves to a range of days; the request holds the resolved
   date when it names a date, month or year that lies inside that range. This is what raw
   retrieval cannot do when the utterance says 'yesterday'.

The matcher never looks at which system produced the text. Its own small stemmer is kept here
on purpose: the ruler must not move when convmem's recall (domain/relevance.py) changes.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from datetime import date, timedelta

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(\d{4})"

# Order matters: full dates before month-year, so '7 May 2023' is not read as 'May 2023'.
_FULL_DATES = [
    (re.compile(rf"\b{_YEAR}-(\d{{1,2}})-(\d{{1,2}})\b"), ("y", "m", "d")),
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I), ("d", "mn", "y")),
    (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I), ("mn", "d", "y")),
    (re.compile(r"(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일"), ("y", "m", "d")),
]
# A day of a month said without its year ('15 March', 'March 15th', '3월 15일'), after the dated forms:
# written ``0000-03-15``, which any year's 15 March meets (rule 2), so an answer in the visitor's
# words ('3월 15일') is found in a request that wrote the year out ('2025년 3월 15일'); such a day
# has no range of its own (rule 4).
_DAY_DATES = [
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?![\w-])", re.I), ("d", "mn")),
    (re.compile(rf"\b{_MONTH}\s+{_DAY}(?![\w-])", re.I), ("mn", "d")),
    (re.compile(r"(?<![\d년])(?<!년\s)(\d{1,2})\s*월\s*(\d{1,2})\s*일"), ("m", "d")),
]
_ANY_YEAR = "0000"  # (no year 0: a day or a month of no year in particular)
_MONTH_DATES = [
    (re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I), ("mn", "y")),
    (re.compile(r"(\d{4})\s*년\s*(\d{1,2})\s*월(?!\s*\d)"), ("y", "m")),
]
# ... and a month said without its year, last ('September', '9월', and in Korean words '구월', '유월'):
# written ``0000-09``, which that month of any year meets, and any day of it, as a year-less day is
# met. Only full English names: 'mar', 'jan' and 'may' alone are words too.
_KO_SPOKEN_MONTHS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "유": 6, "칠": 7, "팔": 8, "구": 9, "시": 10, "십일": 11, "십이": 12}
_BARE_MONTHS = [
    (re.compile(r"\b(" + "|".join(m.lower() for m in calendar.month_name if m and m != "May") + r")\b", re.I),
     lambda m: _MONTHS[m.group(1).lower()]),
    (re.compile(r"(?<![\d년])(?<!년\s)(1[0-2]|[1-9])\s*월(?!\s*\d)"), lambda m: int(m.group(1))),
    (re.compile(r"(?<![가-힣\d])(" + "|".join(sorted(_KO_SPOKEN_MONTHS, key=len, reverse=True)) + r")월(?![가-힣]*절)"),
     lambda m: _KO_SPOKEN_MONTHS[m.group(1)]),
]

STOP_WORDS = frozenset(
    """a an the and or but nor of to in on at by for from with without into onto about as than then so
    is are was were be been being am do does did done has have had having will would shall should can could
    may might must i me my mine we us our ours you your yours he him his she her hers it its they them their
    theirs this that these those there here who whom whose which what when where why how s also just very
    not no some any all each both either neither one ones other another such own same too more most much
    many lot lots like""".split()
)

_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")


def _iso(y: int, m: int, d: int | None = None) -> str | None:
    try:
        return date(y, m, d).isoformat() if d is not None else f"{y:04d}-{m:02d}"
    except ValueError:
        return None


def _rewrite(text: str, patterns: list, full: bool) -> str:
    for pattern, fields in patterns:
        def sub(match: re.Match[str], fields: tuple[str, ...] = fields) -> str:
            parts = dict(zip(fields, match.groups(), strict=True))
            month = _MONTHS[parts["mn"].lower()] if "mn" in parts else int(parts["m"])
            if "y" not in parts:  # (a day without its year: checked against a leap year, written for any)
                iso = _iso(2000, month, int(parts["d"]))
                return f" {_ANY_YEAR}{iso[4:]} " if iso else match.group(0)
            iso = _iso(int(parts["y"]), month, int(parts["d"]) if full else None)
            return f" {iso} " if iso else match.group(0)
        text = pattern.sub(sub, text)
    return text


def normalise_dates(text: str) -> str:
    """``text`` with every date it names written as 2023-05-07, every month as 2023-05 (0000-03-15
    and 0000-05 without their year)."""
    text = _rewrite(_rewrite(_rewrite(text, _FULL_DATES, full=True), _MONTH_DATES, full=False), _DAY_DATES, full=True)
    for pattern, month in _BARE_MONTHS:
        text = pattern.sub(lambda m, month=month: f" {_ANY_YEAR}-{month(m):02d} ", text)
    return text


def normalise(text: str) -> str:
    """Case, punctuation, whitespace and date formats normalised (rule 1)."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    text = normalise_dates(text)
    text = re.sub(r"['\u2019]s\b", "", text).replace("'", "").replace("\u2019", "")
    text = re.sub(r"(?<!\d)-|-(?!\d)", " ", text)  # a hyphen stays only between digits (dates, numbers)
    text = re.sub(r"[^\w-]+|_", " ", text)
    return " ".join(text.split())


def stem(word: str) -> str:
    if word.isascii() and word.isalpha() and not word.endswith("ss"):
        for suffix in ("ies", "ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 2 and word.endswith(suffix):
                word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
                if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                    word = word[:-1]  # running -> run, stopped -> stop
                break
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
    return word


def content_words(normalised: str) -> list[str]:
    return [w for w in normalised.split() if w not in STOP_WORDS]


def _any_year(day: str) -> str:
    """A pattern for a day or a month without its year (``0000-03-15``, ``0000-03``) that meets it in
    any year (a month also meets any day of it)."""
    return r"(?<![0-9a-z\uac00-\ud7a3])\d{4}" + re.escape(day[len(_ANY_YEAR):]) + r"(?![0-9a-z])"


def _occurs(needle: str, haystack: str) -> bool:
    """``needle`` in ``haystack`` at word boundaries (both already normalised)."""
    return re.search(rf"(?<![0-9a-z\uac00-\ud7a3]){re.escape(needle)}(?![0-9a-z])", haystack) is not None


class Request:
    """A request's text, normalised once and searched for many answers."""

    def __init__(self, text: str) -> None:
        self.text = normalise(text)
        self.stems = {stem(w) for w in self.text.split()}
        self.ranges = [r for r in (_token_range(t) for t in self.text.split()) if r]

    def has_word(self, word: str) -> bool:
        if word.startswith(_ANY_YEAR):  # a day or a month without its year: that one in any year
            return re.search(_any_year(word), self.text) is not None
        if _HANGUL_WORD.match(word):
            return word in self.text  # a Hangul word carries its particles: 부산 in 부산에서
        if word.isascii() and word.isalpha():
            return stem(word) in self.stems
        return _occurs(word, self.text)

    def has_answer(self, answer: object) -> bool:
        """Rules 2 and 3."""
        wanted = normalise(str(answer))
        words = content_words(wanted)
        if not words:
            return False  # 'no', 'the': nothing a request could be credited for
        if _occurs(wanted, self.text) or (all(_HANGUL_WORD.match(w) for w in wanted.split()) and wanted in self.text):
            return True
        return all(self.has_word(w) for w in words)

    def has_resolved_date(self, answer: object) -> bool:
        """Rule 4: a date, month or year named in the request lies inside the answer's range."""
        wanted = resolved_range(str(answer))
        if wanted is None:
            return False
        low, high = wanted
        return any(low <= a and b <= high for a, b in self.ranges)


# --- dates as ranges of days -------------------------------------------------------------------
_MONTH_RANGE = re.compile(r"^(\d{4})-(\d{2})$")
_DATE_RANGE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_YEAR_RANGE = re.compile(r"^(?:19|20)\d\d$")


def _token_range(token: str) -> tuple[date, date] | None:
    if token.startswith(_ANY_YEAR):
        return None
    if m := _DATE_RANGE.match(token):
        d = date(int(m[1]), int(m[2]), int(m[3]))
        return d, d
    if m := _MONTH_RANGE.match(token):
        y, mo = int(m[1]), int(m[2])
        if 1 <= mo <= 12:
            return date(y, mo, 1), date(y, mo, calendar.monthrange(y, mo)[1])
    if _YEAR_RANGE.match(token):
        return date(int(token), 1, 1), date(int(token), 12, 31)
    return None


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a few": 3, "a couple of": 2, "few": 3, "couple of": 2}
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_RELATIVE = re.compile(
    r"(?:the\s+)?(?P<n>\d+|a couple of|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten)?\s*"
    r"(?P<unit>day|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\s+"
    r"(?P<dir>before|after|prior to|of)\s*$"
)


def resolved_range(answer: str) -> tuple[date, date] | None:
    """The days a temporal answer denotes, or None when it names no date.

    'the Sunday before 25 May 2023' -> (2023-05-21, 2023-05-21); 'the week before 9 June 2023'
    -> the 13 days before it (whichever calendar week the resolver chose); 'two days after
    3 March 2024' -> 5 March; 'May 2023' -> the month; '2022' -> the year.
    """
    text = normalise(answer)
    tokens = text.split()
    anchor_at = next((i for i, t in enumerate(tokens) if _token_range(t)), None)
    if anchor_at is None:
        return None
    low, high = _token_range(tokens[anchor_at])  # type: ignore[misc]
    m = _RELATIVE.search(" ".join(tokens[:anchor_at]))
    if not m:
        return low, high
    unit, direction = m["unit"], m["dir"]
    n = _NUMBERS.get(m["n"] or "a", None) or int(m["n"])
    sign = -1 if direction in ("before", "prior to") else 1
    if direction == "of":  # 'the week of 4 March 2024'
        span = {"day": 0, "weekend": 2, "week": 6}.get(unit, 0)
        return low - timedelta(days=span), high + timedelta(days=span)
    if unit in _WEEKDAYS:
        d, step = (low, -1) if sign < 0 else (high, 1)
        d += timedelta(days=step)
        while d.weekday() != _WEEKDAYS[unit]:
            d += timedelta(days=step)
        return d, d
    if unit == "weekend":
        return (low - timedelta(days=8), low - timedelta(days=1)) if sign < 0 else (high + timedelta(days=1), high + timedelta(days=8))
    if unit == "year" and (low.month, low.day, high.month, high.day) == (1, 1, 12, 31):  # 'the year before 2023'
        return low.replace(year=low.year + sign * n), high.replace(year=high.year + sign * n)
    days = _UNIT_DAYS[unit] * n
    slack = {"day": 0, "week": 6, "month": 15, "year": 183}[unit]
    if any(word in (m["n"] or "") for word in ("few", "couple")):
        slack = max(slack, 2)  # 'a few days before': vague by a day or two either way
    centre = low + timedelta(days=sign * days) if sign < 0 else high + timedelta(days=days)
    return centre - timedelta(days=slack), centre + timedelta(days=slack)
