"""Lexical relevance (BM25), offline and deterministic. Korean-aware enough: Hangul runs are
also indexed as character bigrams, so 부산 in the query matches 부산에 in a document, and a
one-syllable noun also without its particle, so 옷을 matches 옷은."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

_WORD = re.compile(r"[0-9a-z]+(?:[-_.@][0-9a-z]+)*|[\uac00-\ud7a3]+|[^\W\d_]+", re.UNICODE)
# A capital then a small letter, as a name opens, accented too ("José", "Zoë", "Ċikka", "Łucja", "Ömer"):
# with [A-Z][a-z] alone, "my son José" taught no name and "Ċikka had kittens!!" was nobody's.
_LATIN = [chr(c) for c in range(0xC0, 0x250)]
_UPPER, _LOWER = "".join(c for c in _LATIN if c.isupper()), "".join(c for c in _LATIN if c.islower())
UPPER, LOWER, LETTER = f"[A-Z{_UPPER}]", f"[a-z{_LOWER}]", f"[A-Za-z{_UPPER}{_LOWER}]"
CAPITALISED = UPPER + LOWER
_HANGUL = re.compile(r"^[\uac00-\ud7a3]+$")
_STOP = {"the", "a", "an", "is", "are", "was", "i", "you", "my", "me", "to", "of", "and", "in", "on", "it", "what",
         "do", "does", "did", "for", "with", "that", "this", "be", "at", "or", "how", "can", "about",
         # what a contraction leaves after its apostrophe ("Declan's", "he's", "don't"): no content,
         # yet in most sentences, so a fact full of them matched every question a little
         "s", "t", "d", "ll", "ve", "re", "m",
         # a question's own words: in a sentence they join clauses ("a woman who was an engineer"),
         # so they matched whatever had a relative clause, not the answer
         "who", "whom", "whose", "when", "where", "why", "which"}
STOP_WORDS = frozenset(_STOP)
# Korean "how" takes endings (어떻게, 어땠어, 어떠셨어요): it is a stop word as "how" is. In a fact it is
# a question echoed ("회사는 어떻게 다녀?"), so "LDL 수치는 어떻게 변했나요?" met every fact saying
# 어떻게 ahead of the ones saying LDL. (Where, who and when stay: "어디로 이사가? 운정으로" echoes the
# question the fact answers.)
# ... and "what" is, with its endings (무엇인가요, 뭐였지, 무슨, 어떤): its syllables met other words
# ("무엇인가요" met "인가 났어", a licence granted, ahead of the answer).
_KO_HOW_OR_WHAT = re.compile(r"어떻|어땠|어떨|어떠|무엇|뭐|뭔|무슨|어떤")


def _stop(word: str) -> bool:
    return word in _STOP or bool(_KO_HOW_OR_WHAT.match(word))


# Common irregular past forms, so "What did I make?" meets "made", "Where did I go?" meets "went".
_IRREGULAR = dict(pair.split(":") for pair in (
    "made:make went:go gone:go bought:buy took:take taken:take gave:give given:give got:get gotten:get saw:see "
    "seen:see met:meet ran:run won:win felt:feel found:find told:tell thought:think taught:teach brought:bring "
    "began:begin begun:begin wrote:write written:write drew:draw drawn:draw ate:eat eaten:eat left:leave kept:keep "
    "spent:spend sold:sell built:build sang:sing sung:sing swam:swim flew:fly flown:fly drove:drive driven:drive "
    "chose:choose chosen:choose lost:lose paid:pay led:lead caught:catch fell:fall fallen:fall knew:know known:know "
    "grew:grow grown:grow held:hold heard:hear sent:send became:become broke:break broken:break wore:wear worn:wear "
    "rode:ride ridden:ride spoke:speak spoken:speak stood:stand understood:understand forgot:forget forgotten:forget "
    "blew:blow blown:blow slept:sleep woke:wake woken:wake threw:throw thrown:throw fought:fight rang:ring "
    "drank:drink drunk:drink hid:hide hidden:hide hung:hang shook:shake shaken:shake struck:strike swore:swear tore:tear "
    "torn:tear froze:freeze frozen:freeze fled:flee dug:dig dealt:deal bled:bleed sought:seek sank:sink sunk:sink "
    "stung:sting learnt:learn burnt:burn dreamt:dream spilt:spill leapt:leap meant:mean forgave:forgive"
).split())


# What family call each other, as said and as asked: "What does Madison's mother do?" meets "my mum".
_KIN = dict(pair.split(":") for pair in (
    "mum:mother mom:mother mam:mother mommy:mother mummy:mother dad:father daddy:father "
    "grandma:grandmother gran:grandmother granny:grandmother nana:grandmother grandpa:grandfather "
    "granddad:grandfather grandad:grandfather"
).split())


def stem(word: str) -> str:
    """A light English suffix strip, so refund / refunds / refunded, live / lives / lived and
    mentor / mentored / mentorship meet; common irregular past forms meet their verb (made / make),
    and what family call each other the word they are asked by (mum / mother)."""
    word = _IRREGULAR.get(word, word)
    word = _KIN.get(word.removesuffix("s"), word)
    if word.isascii() and word.isalpha() and not word.endswith("ss"):
        whole = word
        for suffix in ("ships", "ship", "ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 2 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
        if word == "them" != whole:  # (the one stem that would be a pronoun: "theme", "themes" - "What's the theme?")
            word = "theme"
    return word


def words(text: str) -> list[str]:
    """The text's stemmed words without stop words (no Hangul bigrams)."""
    return [stem(w) for w in _WORD.findall(text.lower()) if not _stop(w)]


def plain_words(text: str) -> list[str]:
    """The text's words as written (lower case), without stop words, each once, in order."""
    return list(dict.fromkeys(w for w in _WORD.findall(text.lower()) if not _stop(w)))


def _bigrams(word: str) -> list[str]:
    """A Hangul run's character bigrams (none for a shorter run or another script)."""
    return [word[i : i + 2] for i in range(len(word) - 1)] if _HANGUL.match(word) and len(word) > 2 else []


def terms(text: str) -> list[str]:
    """``words`` plus, for each Hangul run, its character bigrams (BM25 counts more: ``term_counts``)."""
    return [t for w in words(text) for t in (w, *_bigrams(w))]


# Korean chat shortens common words (알바 for 아르바이트, 추합 for 추가합격, 엄마 for 어머니); a question asked in
# full ("아르바이트는?") meets them by the full word's terms, counted with the short one's.
_KO_SHORT = dict(pair.split(":") for pair in (
    "알바:아르바이트 남친:남자친구 여친:여자친구 공시:공무원시험 생파:생일파티 초딩:초등학교 중딩:중학교 고딩:고등학교 "
    "대딩:대학생 직딩:직장인 추합:추가합격 자소서:자기소개서 카톡:카카오톡 학식:학생식당 졸작:졸업작품 아아:아이스아메리카노 "
    "엄마:어머니 아빠:아버지 "
    # ... and a spouse by what chat calls them: "와이프 조직검사 결과" meets "아내는 어떤 진단을 받았나요?"
    "와이프:아내 집사람:아내 마누라:아내 안사람:아내 신랑:남편"
).split())
_KO_SHORT_RE = re.compile("^(?:" + "|".join(_KO_SHORT) + ")")


# A one-syllable Korean noun with its particle (옷을, 집에서, 딸이) meets the same noun with another
# (옷은, 집에): bigrams cannot, the noun alone is shorter than one.
_PARTICLE_1 = frozenset("은는이가을를에도의만과와로")
_PARTICLE_2 = frozenset({"에서", "으로", "한테", "에게", "까지", "부터", "이랑", "하고", "처럼", "보다"})


def _without_particle(word: str) -> tuple[str, ...]:
    """The one-syllable noun of a short Hangul word and its particle (none for any other word)."""
    if not _HANGUL.match(word):
        return ()
    if len(word) == 2 and word[1] in _PARTICLE_1:
        return (word[0],)
    if len(word) == 3 and word[1:] in _PARTICLE_2:
        return (word[0],)
    return ()


# A Korean verb meets its other forms by its root (쓰나요 / 써서 / 썼어, 삼킨 / 삼켜, 파는 / 팔기엔, 탔나 /
# 탔으니, 샀어 / chat's 삼): an ending is cut, then the stem's last syllable loses what the ending fused
# into it (the past ㅆ, the ㄴ or ㄹ before a noun, ㄹ dropped before ㄴ, the ㅁ ending a chat sentence)
# and its vowel contracted with 어/아 goes back (ㅓ→ㅡ, ㅕ→ㅣ, ㅘ→ㅗ, ㅝ→ㅜ, ㅐ→ㅏ, ㅙ→ㅚ). A verb whose
# vowel is ㅓ or ㅕ itself is folded the same way in every form, so its forms still meet; bigrams cannot,
# the forms share no two syllables.
_KO_ENDINGS = tuple(sorted(set(
    "었어요 았어요 였어요 었어 았어 였어 었다 았다 였다 어요 아요 여요 세요 습니다 는데요 는데 은데 니까 으니까 으니 "
    "으면 면서 려고요 려고 려구 으려고 나요 냐 나 니 는 은 을 던 았던 었던 고 기엔 기는 기도 기 게 지 지만 어서 아서 서 다 더라 도록 "
    "자 죠 요 어 아 더라고 "
    # ... and the dialects' (전라도 피웠응께, 했당께, 하는디, 갔드만; 경상도 했능교), so a speaker of one meets the question
    "응께 응게 니께 당께 랑께 는디 은디 든디 던디 드만 드라 드라고 부렀어 부렀다 브렀어 구만 구먼 능교 는기라".split()), key=lambda e: (-len(e), e)))
_KO_BASE_VOWEL = {4: 18, 6: 20, 9: 8, 14: 13, 1: 0, 10: 11}  # (vowel indices of the Unicode Hangul block)
_KO_FUSED_FINAL = frozenset({4, 8, 16, 20})  # ㄴ ㄹ ㅁ ㅆ
# A root in more than this share of the documents (하, 보) matches nothing in particular: it would
# make nearly every fact a weak match, ahead of the facts recall fills by a second signal.
ROOT_SHARE = 0.05
_ROOT = "~"  # (marks a root, so it meets only roots; no word holds it)


def _ko_root(word: str) -> tuple[str, ...]:
    """A Hangul word's verb root, marked so it meets only roots (none for another script)."""
    if not _HANGUL.match(word):
        return ()
    stem = next((word[: -len(e)] for e in _KO_ENDINGS if len(word) > len(e) and word.endswith(e)), word)
    code = ord(stem[-1]) - 0xAC00
    lead, vowel, final = code // 588, (code % 588) // 28, code % 28
    if final in _KO_FUSED_FINAL:
        final = 0
    if final == 0:
        vowel = _KO_BASE_VOWEL.get(vowel, vowel)
    return (_ROOT + stem[:-1] + chr(0xAC00 + lead * 588 + vowel * 28 + final),)


def term_counts(text: str) -> Counter[str]:
    """The terms BM25 counts: ``Counter(terms(text))``, each distinct word stemmed once (a long
    document repeats its words), and also a hyphenated compound's parts, the word in full that
    a Korean short form stands for (``_KO_SHORT``), with its bigrams, and a one-syllable noun
    without its particle (``_without_particle``)."""
    words = Counter(w for w in _WORD.findall(text.lower()) if not _stop(w))
    out: Counter[str] = Counter()
    for w, n in words.items():
        short = _KO_SHORT_RE.match(w)
        for form in (w, _KO_SHORT[short.group(0)]) if short else (w,):
            for t in (stem(form), *_bigrams(form), *_without_particle(form), *_ko_root(form)):
                out[t] += n
        if "-" in w:  # a compound also counts its parts ("transgender-specific" meets "transgender")
            for part in w.split("-"):
                if part and part not in _STOP:
                    out[stem(part)] += n
    return out


# Documents up to this long (a fact's statement, a summary part) are counted once and cached: a
# user's facts are scored on every turn. Longer ones (knowledge a caller sends) never enter the
# cache, so what it holds stays bounded (16,384 x 600 characters) whatever callers send.
_CACHED_MAX_CHARS = 600


def _count(document: str) -> tuple[dict[str, int], int]:
    """A document's term counts and length (a root is another view of a word already counted: not
    in the length, so a document's other scores stay as they were)."""
    counts = term_counts(document)
    return dict(counts), sum(n for t, n in counts.items() if not t.startswith(_ROOT))


_count_cached = lru_cache(maxsize=16384)(_count)


def _counted(document: str) -> tuple[dict[str, int], int]:
    return (_count_cached if len(document) <= _CACHED_MAX_CHARS else _count)(document)


def bm25_scores(query: str, documents: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 score of each document against the query (0.0 when nothing matches)."""
    docs = [_counted(d) for d in documents]
    if not docs:
        return []
    n = len(docs)
    avg = sum(length for _, length in docs) / n or 1.0
    scores = [0.0] * n
    for t in term_counts(query):
        hits = [(i, d[t]) for i, (d, _) in enumerate(docs) if t in d]
        if not hits or (t.startswith(_ROOT) and len(hits) > ROOT_SHARE * n):
            continue
        idf = math.log(1 + (n - len(hits) + 0.5) / (len(hits) + 0.5))
        for i, tf in hits:
            scores[i] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * docs[i][1] / avg))
    return scores


def rank(query: str, documents: Sequence[str]) -> list[int]:
    """Indices of ``documents``, most relevant first; ties keep the given order."""
    scores = bm25_scores(query, documents)
    return sorted(range(len(documents)), key=lambda i: (-scores[i], i))
