"""Pattern-based fact extraction for the offline model, English and Korean. Pure.

Only what the visitor says about themselves and their world. Two kinds of candidate:

- slot facts, one current value each (a change replaces, with history): name, where they live,
  email, phone, preferred language, likes and dislikes, work, study, age, and the people and
  pets in their life by name (``family.sister``, ``pet.max``);
- the rest of what they tell, one sentence at a time: events and plans with their time resolved
  against when it was said ("yesterday" said on 8 May 2023 is "on 7 May 2023"), activities,
  health, goals, possessions. Kept in their words, turned to the third person ("I" -> "they",
  "my" -> "their"), under ``event.<topic>`` when dated and ``note.<topic>`` otherwise.

A sentence or clause about the other party ("your turtles", "you should...") or a question is
never a fact about the visitor; small talk ("I know, right?", "I'm so glad") is not worth keeping.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Collection
from datetime import datetime

from convmem.domain import fact_dates, relevance
from convmem.domain.fact_merge import (
    AGENT_NAME,
    CALENDAR_WORDS,
    TOLD,
    asked_after,
    asks_after_household,
    framed,
    normalise_key,
    priority,
    their_names,
)
from convmem.domain.models import CONTEXT_MAX_CHARS, FactCandidate

_LANGUAGES = {
    "english": "English", "korean": "Korean", "japanese": "Japanese", "chinese": "Chinese", "spanish": "Spanish",
    "french": "French", "german": "German", "italian": "Italian", "portuguese": "Portuguese", "vietnamese": "Vietnamese",
    "한국어": "Korean", "영어": "English", "일본어": "Japanese", "중국어": "Chinese", "스페인어": "Spanish",
    "프랑스어": "French", "독일어": "German",
}
_LANG_EN = "|".join(k for k in _LANGUAGES if k.isascii())
_LANG_KO = "|".join(k for k in _LANGUAGES if not k.isascii())
# Capitalised words after "I'm" that are not names.
_NOT_NAMES = {
    "sorry", "fine", "good", "ok", "okay", "not", "so", "very", "just", "here", "back", "happy", "sure", "glad",
    "afraid", "looking", "trying", "going", "new", "still", "also", "really", "tired", "busy", "ready", "done",
    "interested", "from", "in", "at", "a", "an", "the", "my", *_LANGUAGES, "american", "british", "canadian",
}
_TRAILING = re.compile(r"(?:\s+(?:anymore|any more|now|too|either|at all|a lot|very much|so much|much|really))+$", re.IGNORECASE)
_NOT_OBJECTS = {"it", "this", "that", "them", "you", "him", "her", "these", "those", "one", "so", "to", "the idea"}

_NAME = "([^\\W\\d_][\\w'-]*(?:\\s+[A-Z][\\w'-]*)?)"
_PLACE = r"((?:" + relevance.UPPER + r"|[가-힣])[\w'-]*(?:(?:\s+|,\s*)" + relevance.UPPER + r"[\w'-]*){0,3})"
_KO_WORD = r"(?<![가-힣A-Za-z])([가-힣A-Za-z]+?)"
_EMAIL = r"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"
_PHONE = r"(\+?\d[\d\s().-]{6,}\d)"

_NAME_PATTERNS = [
    # (not a call on the phone: "Phil call me to office", "she'll call me back tomorrow", "she call me too")
    re.compile(r"(?i:\bmy name is|\bmy name's|(?<!\bshe\s)(?<!\bhe\s)(?<!\bthey\s)\bcall me)\s+(?!(?i:to|at|on|in|back|later|tomorrow|tonight|today|when|if|after|before"
               r"|now|soon|anytime|whenever|asap|again|for|and|or|but|the|a|an|up|over|out|every|each|from|about|with|once|twice"
               r"|too|also|yesterday|last|this"
               r"|i|you|he|she|we|they|it|my|your|his|her)\b)" + _NAME),  # (no name is a pronoun: "when Petru call me I think he die")
    re.compile(r"\bI(?:'m| am)\s+(" + relevance.UPPER + r"[a-z'-]+)(?=\s*(?:[,.!?]|$|\band\b))"),
    re.compile(r"제\s*이름은\s*" + r"([가-힣A-Za-z]+?)" + r"(?:입니다|이에요|예요|이야|야|이라고\s*해요|라고\s*해요|요)?(?=[\s.!?,]|$)"),
    re.compile(r"저는\s*([가-힣]+?)(?:이)?라고\s*(?:합니다|해요)"),
]
_LIVE_PATTERNS = [
    (re.compile(r"(?i:\bI\s+(?:live|am living|'m living|reside)\s+in|\bI(?:'m| am) based in)\s+" + _PLACE), False),
    (re.compile(r"(?i:\bI(?:'ve| have)?\s+(?:just\s+|recently\s+)?(?:moved|relocated)\s+to)\s+" + _PLACE), True),
    (re.compile(_KO_WORD + r"(?:에서|에)\s*(?:살아요|살고\s*있어요|살고\s*있습니다|삽니다|살아|살고\s*있어)"), False),
    (re.compile(_KO_WORD + r"(?:으로|로)\s*이사\s*(?:했어요|했습니다|했어|왔어요|왔습니다|를\s*왔어요|했다)"), True),
]
_EMAIL_PATTERNS = [
    re.compile(r"(?i:\bmy\s+e-?mail(?:\s+address)?\s+is|\be-?mail\s+me\s+at|\breach\s+me\s+at|\bcontact\s+me\s+at)\s+" + _EMAIL),
    re.compile(r"제\s*(?:이메일|메일)(?:\s*주소)?(?:은|는)\s*" + _EMAIL),
]
_PHONE_PATTERNS = [
    re.compile(r"(?i:\bmy\s+(?:phone|mobile|cell)(?:\s+number)?\s+is|\bmy\s+number\s+is|\bcall\s+me\s+at|\btext\s+me\s+at)\s+" + _PHONE),
    re.compile(r"제\s*(?:전화\s*)?(?:번호|연락처|휴대폰\s*번호)(?:는|은)\s*" + _PHONE),
]
# The language they ask to be answered in: a request to whom they write ("Please reply in Korean",
# "한국어로 답해 주세요"), not the language they talk in elsewhere ("we talk in Spanish at home", "사장님이
# 중국어로 얘기해서 편했어요": a learner's boss who speaks her language).
_LANGUAGE_PATTERNS = [
    re.compile(r"(?i:(?:^|[.!?]\s+|\b(?:please|pls|plz|can\s+you|could\s+you|would\s+you)\s+)(?:reply|answer|respond|talk|speak|write)"
               r"(?:\s+to\s+me)?\s+in|\b(?:reply|answer|respond|talk|speak|write)\s+to\s+me\s+in|\bI\s+prefer|"
               r"\bmy\s+(?:preferred|first)\s+language\s+is)\s+(" + _LANG_EN + r")\b", re.IGNORECASE),
    re.compile(r"(" + _LANG_KO + r")로\s*(?:좀\s*|만\s*)?(?:(?:답|대답|말|얘기|이야기|응답)\s*)?(?:해\s*(?:줘|주|줄|달라)|써\s*(?:줘|주)|하세요|해요\s*\?)"),
]
_LIKE_EN = re.compile(
    r"\bI\s+(?:really\s+|also\s+|just\s+)?(like|love|enjoy|prefer|don't\s+like|do\s+not\s+like|dislike|hate|can't\s+stand)\s+"
    r"([^.,!?;()]+?)(?=\s+(?:and|but|because|so|when|if|though|although|more|better|over)\b|\s*[.,!?;()]|$)",
    re.IGNORECASE,
)
_LIKE_KO = re.compile(r"(?<![가-힣A-Za-z])([가-힣A-Za-z ]{1,20}?)(?:을|를)\s*(?:정말\s*|너무\s*|아주\s*|제일\s*)?(좋아해요|좋아합니다|좋아해|싫어해요|싫어합니다|싫어해)")


def _first(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for p in patterns:
        m = p.search(text)
        if m:
            return m.group(1).strip()
    return None


def _name(text: str) -> FactCandidate | None:
    name = _first(_NAME_PATTERNS, text)
    if not name or name.casefold() in _NOT_NAMES or name.split()[0].casefold() in _NOT_NAMES:
        return None
    if name.islower():
        name = name.title()
    return FactCandidate(key="name", value=name, statement=f"Their name is {name}")


def _home(text: str) -> FactCandidate | None:
    for pattern, moved in _LIVE_PATTERNS:
        m = pattern.search(text)
        if m:
            place = m.group(1).strip(" ,")
            if place.casefold() in {"a", "an", "the", "my"}:
                return None
            statement = f"Lives in {place} (moved there)" if moved else f"Lives in {place}"
            return FactCandidate(key="home.location", value=place, statement=statement)
    return None


def _likes(text: str, others: frozenset[str] = frozenset()) -> list[FactCandidate]:
    """Tastes the visitor states ("I love hiking", "매운 음식 좋아해요"); not fondness for the other
    party's things or for someone of theirs they just told news of (``others``: "I love Biscuit walks")."""
    out = []
    for m in _LIKE_EN.finditer(text):
        verb = " ".join(m.group(1).lower().split())
        thing = " ".join(m.group(2).split())
        thing = re.sub(r"^(?:to\s+|the\s+|a\s+|an\s+)", "", thing, flags=re.IGNORECASE)
        thing = _TRAILING.sub("", thing)
        words = thing.split()
        if not words or len(words) > 5 or thing.casefold() in _NOT_OBJECTS or words[0].casefold() in _NOT_OBJECTS:
            continue
        if (_OTHER_PARTY.search(thing) or _OTHER_PARTY.search(text[max(0, m.start() - 12):m.start()])
                or any(w.casefold().removesuffix("'s") in others for w in words)):
            continue  # "I love your turtles": their things, not a taste of the visitor's
        if len(words) == 1 and thing[:1].isupper() and not re.search(rf"\b(?:my|our)\b[^.!?]*\b{re.escape(thing)}\b", text, re.I):
            continue  # "I love Biscuit!": fondness for someone they name, not a taste; whose they are, only "my" says
        if verb == "prefer" and thing.casefold() in _LANGUAGES:
            continue  # "I prefer Korean" is the language, handled there
        negative = verb in {"don't like", "do not like", "dislike", "hate", "can't stand"}
        statement = {"prefer": "Prefers", "love": "Loves", "enjoy": "Enjoys"}.get(verb, "Likes")
        statement = f"Does not like {thing}" if negative else f"{statement} {thing}"
        out.append(_preference(thing, negative, statement))
    for m in _LIKE_KO.finditer(text):
        thing = re.sub(r"^(?:저는|나는|전|난|제가|내가)\s+", "", m.group(1).strip())
        if not thing or thing in {"그것", "그거", "이것", "이거"}:
            continue
        negative = m.group(2).startswith("싫어")
        out.append(_preference(thing, negative, f"Does not like {thing}" if negative else f"Likes {thing}"))
    return [c for c in out if c is not None]


def _preference(thing: str, negative: bool, statement: str) -> FactCandidate | None:
    try:
        key = normalise_key(f"preference.{thing}")
    except ValueError:
        return None
    return FactCandidate(key=key, value=("-" if negative else "+") + thing.casefold(), statement=statement)


# (not a model's letter: "쿠보타 U-17")
_OTHER_PARTY = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'd|you'll|ur|u(?!-?\d)"
                          # (not a letter that names a place: "Levitan Music School on Avenue U", "Block U")
                          + "".join(rf"(?<!{w}\su)" for w in ("Avenue", "Ave", "Street", "Block", "Building", "Gate", "Terminal", "Hall",
                                                             "Section", "Unit", "Level", "Zone", "Wing", "Row", "Lot", "Route", "Vitamin"))
                          + r")\b"
                          # ("ya" is "you" after a word, "see ya", "told ya"; opening a sentence it is "yes": "ya i wen take da boat out",
                          # and so it is before who did it: "hau cousin ya we got back thursday night")
                          r"|(?<![.!?]\s)(?<!^)\bya\b(?!\s+(?:we|i|he|she|they|it|my|our)\b)|당신|(?<![가-힣A-Za-z])(?:너는|너도|네가|니가|너의|너랑|너네|니네|너희|님은|님도|님의|님이|니는|니도|니를|니한테|니랑|니하고"
                          r"|자네(?:가|는|도|를|의|한테|랑|와))"  # (하게체's "you": "수진이가 자네 팔짱 끼고")
                          # "you" with its particle dropped ("너 망원동 떠나면"; 니 also in dialect: "니 여친", "니는")
                          r"|(?<![가-힣])(?:니|너|넌|자네)(?=\s)", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|we're|we've|we'll|our|ours|ourselves|us|im|ive|mi"
                           # (and Taglish's: "kinuha namin yesterday", "first week ko na sa Cedarbrae Manor": "ko" before
                           # what follows it in Tagalog, not Hindi's or Nepali's "ko", "naya barsa ko shubhakamana")
                           r"|ako|namin|kami|natin|akin|sakin|ko(?=\s+(?:na|pa|ng|sa|lang|din|rin|naman|nga|talaga|ba|eh|kasi)\b))\b"
                           r"|\bi(?:'m|'ve)\b"  # (texting: im, ive; Caribbean English "mi", I and my)
                           # (and Scots' and the North's "am" for "I'm", opening what they are or are not doing:
                           # "am no doin yoga on the kitchen floor", "am gaun tae kirkwall the morn")
                           r"|^am\s+(?=(?:no|nae|not|no'|gonna|gaun|goin|going|just|still|aff|off|[a-z]{2,}in[g'\u2019]?)\b)", re.IGNORECASE)
# (제, 내, 저 alone only as a word: 제주도, 내일 and 저녁 are not "my" or "I".)
_KO_FIRST_PERSON = re.compile(r"(?:^|\s)(?:(?:저는|저도|저를|제가|저희|나는|나도|내가|우리)(?=\s|$|[가-힣])|(?:제|내|저|나|난|전)(?=\s|$))")
# Korean leaves the subject out ("어제 회사 그만뒀어요" is "I quit my job yesterday"): a statement
# that names no other party is the visitor's own, unless it is a reaction to what they were told
# ("사진 정말 예쁘네요", "좋았겠다").
# "~잖아(요)" appeals to what the listener knows ("그 사람 노래 잘하잖아": their world, not the
# visitor's); the plain "~고 싶다!" is "I'd love to" (an _OPINION in English), unlike the told "~고 싶어요".
# Hearsay ("~다던데", "~래요", "~했대") reports what someone else said, not what the visitor tells;
# a guess ("가시 때문에 다 뚫릴 듯") is no more than a guess.
# "기대돼요" (looking forward to it) is "can't wait" (an _OPINION in English), "멋있다", "보기 좋다"
# and "~라니" judge what they were told; a sentence that opens with laughter ("ㅋㅋㅋ 리트리버 체력은 못
# 이김") answers it.
# A guess from what they were told ("소질이 있나 봐요", "대단한 건가 봐요": it seems you...): the
# syllable before 가 ends in ㄴ (the try-form "가 봐요", go and see, stands apart).
_FINAL_N = fact_dates.ending_in(4)  # 한, 건, 좋은
_FINAL_L = fact_dates.ending_in(8)  # 할, 먹을
_KO_GUESS = r"(?<=[가-힣])나\s*(?:봐|봐요|보다|보네|보네요|봅니다)|(?<=[" + _FINAL_N + r"])가\s*(?:봐|봐요|보다|보네|보네요|봅니다)"
_HEARSAY_ENDINGS = (r"다던데|라던데|다더라|라더라|다더라고|라더라고|대요|[했한된는았었였셨갔왔]대|(?<![" + _FINAL_L + r"])(?<![" + fact_dates.KO_PAST_SYLLABLES + r"]드)래요|달래요"  # (보낼래요: what they will do;
                    # 달래요: asked for; 강원도's ~었드래요 tells: "그저께 중고로 하나 들였드래요")
                    # 카더라: 경상도 (not "할라칸다": I mean to); ~다네: "they say", 해야 한다네; ~라네 after a noun too ("디스크라네")
                    r"|카더라|카던데|(?<![" + _FINAL_L + r"]라)칸다|카네|(?<=[한된간온는])다네|(?<=[가-힣])라네"
                    r"|(?<=[가-힣][다라])\s?(?:고\s?)?하(?:네|더군|더구먼)")  # ... and as the old say it: "높게 나왔다 하네", "8.6이라 하더군"
# ~잖아 ("you know") reacts ("귀엽잖아"), except after a past it recalls ("하이델베르크 갔었잖아요": I went,
# you know), unless what it recalls is words ("일이 많다고 했잖아요": what the listener said).
_KO_NOT_PAST_SYLLABLE = "(?:(?<=고 했)|(?<=고했)|(?<=고 하셨)|(?<=고하셨)|(?<![" + fact_dates.KO_PAST_SYLLABLES + "]))"
# ... and a past recalled right after a question to them is of their matter, a reaction too
_KO_RECALLS = re.compile(r"잖아요?[.!~^ㅋㅎㅠㅜ\s]*$")
# Gyeongsang 아이가 ("isn't it") reacts ("좋다 아이가"), except after a past deed it recalls to the listener
# ("신암초 5년 채웠다 아이가": I've done five years, you know).
# (any past: "개한테 물렸다 아이가", "차 샀다 아이가")
_KO_NOT_PAST = f"(?<![{fact_dates.KO_PAST_SYLLABLES}]다 )(?<![{fact_dates.KO_PAST_SYLLABLES}]다)"
_KO_REALLY = r"(?:[.!~\s]*(?:진짜|정말|증말|참말로|ㄹㅇ))?"  # (a reaction's "really" after it: "장하다 진짜")
# (not what the visitor cannot do, which turns a suggestion down: "한의원 침은 정말 못 맞겠어요", "필라테스는 못 하겠어요")
_KO_NOT_UNABLE = "(?<!못 [가-힣])(?<!못 [가-힣]{2})(?<!못[가-힣])(?<!못[가-힣]{2})"
_KO_REACTION = re.compile(r"(?:" + _KO_NOT_UNABLE + r"(?:겠다|겠네|겠네요|겠어요|겠어)|네요|군요|구나|네|" + _KO_NOT_PAST_SYLLABLE + r"잖아요?|" + _KO_NOT_PAST + r"아이가|갑다|고\s*싶다|듯|듯요|듯해|듯해요"
                          r"|기대돼|기대돼요|기대된다|기대되네|기대됩니다|라니|다니"
                          r"|(?:화이팅|파이팅|홧팅)(?:이요|입니다|이다|요)?"  # (cheering them on: "준호 화이팅이요")
                          r"|(?<![가-힣])힘\s*내(?:세요|셔요|요|라|시길|십시오)?"  # (... and "석진 씨 힘내세요")
                          r"|멋있다|멋지다|부럽다|대단하다|귀엽다|예쁘다|웃기다|신기하다|보기\s*좋다"
                          # relief at what was heard, said alone ("진짜 다행이다", "휴 다행이네요") or with the name it is for
                          # ("다행이다 나비 ㅠㅠ"), not at their own luck ("엄마가 권선동 사셔서 차로 10분이라 그나마 다행이에요")
                          r"|^\s*(?:(?:아|휴|와|오|진짜|정말|참|넘|너무)\s*)*다행(?:이다|이네|이네요|이에요|이야|임|입니다)(?:\s+[가-힣]{1,4})?"
                          # ... or after what was heard ("콩이 다리 나았다니 다행임", "간판 에 오르는구나 잘 됐다"; not one's own
                          # "면접 잘 됐다"), and congratulations, the voice-typed too ("보리 생일 축하 한다")
                          r"|(?:다니|라니|대서|구나)[\s.!~,]*(?:(?:아|휴|진짜|정말|참|넘|너무)\s*)*(?:다행(?:이다|이네|이네요|이에요|이야|임|입니다)"
                          r"|잘\s*됐(?:다|네|네요|어|어요|구나|습니다))"
                          r"|(?<![가-힣])축하\s*(?:해|해요|한다|합니다|드려요|드립니다|하오|혀|햐)"
                          # praise in any form ("귀엽더라", "멋져요", "부러워요")
                          r"|(?:귀엽|귀여|예쁘|예뻐|멋있|멋지|멋져|부럽|부러(?:워|웠|운|움)|대단하|대단해|신기하|신기해|잘했|잘한\s*거)[가-힣]*"
                          r"|(?<![가-힣])(?:장하|장해|기특하|기특해)[가-힣]*"  # ("콩이 장하다", "아이고 기특하네": not 저장해)
                          # ... and pity ("수련이 고생한다", "고생했네", "안쓰럽다"; not what they went through, "고생했다")
                          r"|(?<![가-힣])(?:고생(?:한다|하네|하네요|이네|이네요|하는구나|했네|했네요|많았네|많네)|안쓰럽[가-힣]*|딱하[가-힣]*|불쌍[하해][가-힣]*)"
                          # ... and a blessing on them ("미경 샘 복 받으실 거예요")
                          r"|복\s*(?:받으실|받을|받으세요|받으시길)(?:\s*(?:거예요|거에요|거야|겁니다|꺼예요|꺼야|거|바래요|바랍니다))?"
                          # ... and reassurance, that theirs will be well ("복실이 착해서 괜찮을 거예요", "수술 잘 될 거예요")
                          r"|(?:괜찮을|괜찮아질|잘\s*될|좋아질|나을|나아질)\s*(?:거예요|거에요|거야|겁니다|거다|거임|꺼예요|꺼야)"
                          # ... and middle age's ~구만 as ~구나 ("낚시 신동 나왔구만", "이름이 정겹구만"; not 하게체's ~구먼,
                          # which tells: "정순이가 간 지 벌써 여섯 해가 되었구먼")
                          r"|구만|구만요"
                          # how recent it feels ("아기 때 사진 보여줬던 게 엊그제 같은데": time flies)
                          r"|(?:어제|엊그제|그제)\s*같[가-힣]*"
                          # a likeness ("웰시코기 엉덩이는 언제 봐도 복숭아 같아요"), not a guess (~ㄴ 것 같아요)
                          r"|(?<![것거걸게])\s같(?:아요|아|다|네요|네|습니다)"
                          # what they shared, seen ("보리 생일 사진 잘 봤어요": thanks for the photos)
                          r"|(?:사진|영상|동영상)[가-힣]*\s+(?:잘\s*)?봤[가-힣]*"
                          r"|" + _KO_GUESS + r")"
                          + _KO_REALLY + r"(?:[.…!~^ㅎㅋㅠㅜ\s\ufe0f]|\(웃음\)|" + fact_dates.EMOJI + r")*$"  # (and its "really",
                          # and the emoji or "(웃음)" it ends on: "손주사위가 생긴다니 😍")
                          # ... and what they heard, as it ends (not with an emoji, which news of theirs ends on: "언니 16시간 진통했대 🥲")
                          r"|(?:" + _HEARSAY_ENDINGS + r")" + _KO_REALLY + r"[.!~^ㅎㅋㅠㅜ\s]*$")
# ... but "~ㄹ 듯" with a day of its own is a plan held loosely ("담주 금요일 빌드 마감이라 그거 끝나고
# 생각해볼듯": I'll probably think about it then), not a guess at what was heard ("수술 잘한 듯").
# ... nor is a past ending in ~네 on a day it names: news, as middle age tells it ("그 포터가 지난주 금요일에
# 클러치가 나갔네"), not praise ("잘했네").
_KO_DATED_NEWS = re.compile(r"[" + fact_dates.KO_PAST_SYLLABLES + r"]네[.!~^ㅎㅋㅠㅜ\s]*$"  # ("그저께 원고를 택배로 부쳤네")
                            r"|부터\s.*고\s?있네[.!~^ㅎㅋㅠㅜ\s]*$")  # (... or what goes on since then: "지난주 목요일부터 ... 배우고있네")


_KO_PRAISED = re.compile(r"다행|고생|수고|축하|잘했|잘\s*봤|벌써|엊그제|성공했|겄")  # (겄: a guess, 좋아허겄네)


def _told_in_hage(sentence: str, heard: frozenset[str], hage: bool) -> bool:
    """Whether a past ending in ~네 tells at length what the visitor did, as the old write 하게체 ("그랜저는
    중고상에 삼백만 원을 받고 넘겼네", "매실나무 다섯 그루에서 두 말 남짓 땄네"): five content words or more,
    not echoing what was just heard; not praise of, or relief at, the listener's ("벌써 많이 컸네", "시험 잘
    봤네", "다행이다 콩이 고생했네"). ``hage``: the message is written in 하게체 (``_KO_HAGE``), and ~네 in
    any tense but the guess (겠네) tells ("월세 35만 원을 내고 나면 남는 것이 별로 없지만 연금이 있으니 굶지는 않네")."""
    return (bool((_KO_NE if hage else _KO_DATED_NEWS).search(sentence)) and len(set(_content(sentence))) >= 5
            and not _echoes(sentence, heard) and not _KO_PRAISED.search(sentence))


# A message in 하게체, as the old write to the young ("자네", "으뜸일세", "그렇구먼"), or one with three
# sentences ending in ~네 (``_told``): its ~네 tells, as 해요체's ~요 does.
_KO_HAGE = re.compile(r"(?<![가-힣])자네(?:[가는도를의]|한테|랑|와)?(?=\s+[가-힣])|일세(?=[.!?,\s]|$)|(?:구먼|구려)(?=[.!?,\s]|$)")
_KO_NE = re.compile(r"(?<!겠)네[.!~^ㅎㅋㅠㅜ\s]*$")


_KO_LIKELY_PLAN = re.compile(r"[" + _FINAL_L + r"]\s*듯(?:요|해|해요)?[.!~^ㅎㅋㅠㅜ\s]*$")
# Laughter opening a sentence reacts to what was just said ("ㅋㅋㅋ 리트리버 체력은 못 이김"), unless
# the sentence names its own time: then it is news told with a laugh ("ㅋㅋ 지난주 금요일이 마지막 출근이었어요").
_KO_LAUGH_OPENS = re.compile(r"^[ㅋㅎ]{2,}")
# ... and so does a sigh ("아이고 보리 고생한다", "아이고 축하한다 우리딸~~"): what the other party told moved them.
# (Not laughter before a turn to news of their own: "ㅋㅋ 그리고 신랑이 중고 운반차 샀어".)
# (the words that turn to something else: "그리고", "아 참", "근데", "그나저나")
_KO_TURN_WORDS = r"(?:아\s*)?(?:그리고|근데|그런데|참|암튼|아무튼|그나저나)\s"
_KO_REACTION_OPENS = re.compile(_KO_LAUGH_OPENS.pattern + r"(?![.!~\s]*" + _KO_TURN_WORDS + ")"
                                r"|^(?:아이고|아이구|어이구)"
                                # (and "as expected of X", said alone to praise: "역시 리스크관리부 ㅋㅋㅋ 고마워")
                                r"|^역시\s+[가-힣]+(?:\s+[가-힣]+)?[\s.!~ㅋㅎ]*$")
# ... unless it tells a figure of its own, as news is told with a laugh ("ㅋㅋ 콩이 4.8키로에서 4.3됨 의사쌤이 칭찬함",
# "ㅋㅋ 수학 92점 나옴"): a reaction seldom counts.
_KO_FIGURE = re.compile(r"\d[\d.,]*\s*(?:키로|킬로|kg|원|만\s*원|천\s*원|점|등|위|개|장|명|시간|분|%|센치|cm|주|달|년)")
# A sentence that turns to something else (``_KO_TURN_WORDS``): news of the speaker's, not a reaction to
# what was just heard.
_KO_TURNS = re.compile(r"^\s*" + _KO_TURN_WORDS)
# "~겠네요" muses on what was just heard even with 나 or 저 ("준영 씨한테 내가 한소리 해야겠네요",
# "저도 다이어트 해야겠네요"): a reaction, not news.
_KO_MUSING = re.compile(r"겠네요?[.!~^ㅋㅎㅠ\s]*$")
# A sentence about someone called by name with 씨 (the name opens it: "준영 씨가 바쁘면", "지혜 씨
# 클라이밍 사랑은") is about the listener or an acquaintance, not the visitor; it is the visitor's
# only when "I" is in it or they are one of the visitor's people by name (as an English sentence
# naming someone). (A title with 님, 교수님, 팀장님, is the visitor's professor or boss; 마음씨 and
# 아저씨 are no names.)
_KO_HONORIFIC_NAME = re.compile(r"^(?:\S+\s)?([가-힣]{2,3}) 씨(?=$|[^가-힣]|가|는|도|랑|의|를|한테|께|와|하고|네|에게|만|요|처럼|보다)")
# Hearsay of their own family ("준호 오빠랑 가은 언니가 예식장 계약했대") is their world all the same.
# ... and so is what they were told where they went ("내과 갔더니 역류성 식도염이래요", "지난주 수요일에
# 받았는데 철분만 좀 부족하대요"): their news, as hearsay of their family is.
_KO_WENT_AND = re.compile(r"[가-힣]더니\s|[았었였했갔왔봤받찍]는데[\s,]|보니까?[\s,]")  # (and "검사해 보니까 ... 맞대요")
_KO_HEARSAY = re.compile(r"(?:" + _HEARSAY_ENDINGS + r")[.!~^ㅎㅋㅠㅜ\s]*$")
# Whom one rents from or works under, told of bare: the visitor's own ("집주인이 전세금 올린대", "팀장님이 야근
# 없앤대"; not the listener's: "니 집주인").
_KO_OVER_THEM = re.compile(r"(?<![가-힣])(?<![너네니]\s)(?:건물주|집주인|주인집|사장님|팀장님|부장님|과장님|실장님|원장님"
                           r"|사장(?=[이은도]\s))")  # (and by surname: "정 사장이 결국 월세 125만 원 달래요")
_KO_KIN = re.compile(r"(?<![너네])(?<![너네]\s)(?:엄마|아빠|어머니|아버지|부모님|할머니|할아버지|언니|오빠|누나|형|동생|남동생|여동생|이모|고모|삼촌"
                     r"|아내|와이프|집사람|마누라|안사람|남편|신랑|바깥양반|아들|딸(?!기))")
# A wish ("망고가 저한테도 '안녕' 해 줬으면 좋겠어요": I hope...; "콩이 얼른 낫길", "꼭 붙기를 바라요",
# "콩이 수술 잘 되길 기도 할게요"; not "가는길 바래다줬어", seeing someone off),
# and one for the listener's outing ("즐겁게 다녀와요", "잘 다녀오세요"), is an _OPINION, whoever it names.
# What an employer gives, told as 줘요 ("수당 월 20만 원 더 줘요", "월급 280만 원에 4대보험도 해줘요"): pay and
# an amount in won, no request of the listener.
_KO_PAY = r"월급|시급|일당|주급|연봉|수당|보너스|상여금"
_KO_PAID = re.compile(r"(?:" + _KO_PAY + r"|시간당|(?<![가-힣])월\s*\d)[^?]*\d[\d,.]*\s*(?:만\s*)?원"
                      r"|(?:" + _KO_PAY + r")[^?]*[일이삼사오육칠팔구십백천만]+\s*원")
# ... nor is what someone honoured does for the visitor's own, told in the honorific present ("동삼 햇살요양원 선생님들이
# 정말 잘해 주세요": they treat her well): a request has no subject of its own before its 주세요.
_KO_THEY_DO = re.compile(r"(?:님|님들|분들|분)(?:이|께서)\s+(?:[가-힣]+\s+){0,3}?[가-힣]+\s?주(?:세요|셔요|십니다)")
# ... nor is "look!" after what was told, the photo it points to ("콩이 오늘 곰돌이컷 새로 해줬는데 넘 귀여워 프사 바꿨어 봐봐 ㅋㅋㅋ")
_KO_LOOK = re.compile(r"(?<=[가-힣])\s+봐\s?[봐바](?:요)?[\s.!~^ㅋㅎ]*$")
_KO_WISH = re.compile(r"면\s*좋겠|기를\s*바라|(?<=[가-힣])길\s*(?:바래(?!다)|바라(?!시|셔)|빌|빕|기도|기원)"
                      # (a prayer for them, and regards sent: "준우 잘 적응하라고 기도할게요", "미정씨한테 안부 전해라 하준이 하윤이도")
                      r"|(?:라고|도록)\s*기도(?:할게|할께|하겠|해요|해|드릴게|합니다|드려요)|안부\s*(?:좀\s*)?전(?:해|하)"
                      r"|(?:얼른|빨리|어서|꼭|무사히|부디|잘)\s[가-힣\s]*?[가-힣](?:길|기를)(?:[.!~^ㅋㅎㅠㅜ\s\ufe0f]|" + fact_dates.EMOJI + r")*$"
                      # (and get well: "영수 선생님 빨리 나으세요", "쾌차하시길")
                      r"|(?:얼른|빨리|어서|푹)\s*(?:나으세요|나으셔요|낫으세요|나아라|나으시|회복하세요|회복하시)|쾌차"
                      r"|(?:즐겁게|재밌게|재미있게|조심히|잘)\s*(?:다녀와|다녀오|놀다\s*와|놀다\s*오)")
# A title's full stop ("Mrs. Chen", "Sr. Armando") does not end the sentence, nor does a mark before
# the day it happened ("I bought the scooter!! on Friday", "JR PROPOSED!! to Dani, on Wednesday").
_WEEKDAY = r"\b(?i:mon|tues|wednes|thurs|fri|satur|sun)day\b"
_ON_THE_DAY = r"\s+(?:(?:to|with|for|at)\s+[\w'-]+,?\s+)?(?:on|last)\s+" + _WEEKDAY
_NOT_AN_END = ("".join(rf"(?<!\b{t}\.)" for t in ("Mrs", "Mr", "Ms", "Dr", "St", "Sr", "Sra", "Jr", "Prof", "Mt"))
               + r"(?!(?<=[!?])" + _ON_THE_DAY + r")"
               # (... after a full stop, unless its own clause follows: "they called me back. on Tuesday I have the interview")
               + r"(?!(?<=[.])" + _ON_THE_DAY + r"(?!\s+(?:(?i:morning|afternoon|evening|night)\s+)?(?:I|i|we|he|she|they|my|our|his|her|their)\b))")
_PAST_SYLLABLES = fact_dates.ending_in(20)  # (final ㅆ: 했, 갔, 꿨)
_SENTENCE = re.compile(r"(?<=[.!?。])" + _NOT_AN_END + r"\s+|\n+|(?<=[다요죠음])\.\s*"
                       # (and a Korean surprise trailing off: "강태윤 디제이님 하차라니… 나 게스트 갔을 때 ...")
                       r"|(?<=[라다]니…)\s+"
                       # Korean chat ends a sentence with a mark instead ("축하해요^^ 남자들은...", "알았어요ㅎㅎ 늦었는데")
                       r"|(?<=[다요죠네음라지야][~^])\s+|(?<=[다요죠네음라지야][~^ㅎㅋ][~^ㅎㅋ])\s+|(?<=[다요죠네음라지야][~^ㅎㅋ]{3})\s+"
                       # (and middle age's ~구만 with its tilde or "(웃음)": "낚시 신동 나왔구만~~ 제일철물 후계자는 ...")
                       r"|(?<=구만[~^])\s+|(?<=구만[~^]{2})\s+|(?<=구만 \(웃음\))\s+|(?<=구만\(웃음\))\s+"
                       # ... or with no mark at all: after a question in ~냐, or a statement's past, future or
                       # present ending ("침넘어간다 영흥도까정", "병원 갔다 오늘"), not a noun's 다 (바다, 보다)
                       # (not a question quoted, before the verb that says who asked it: "내가 뭐랬냐 이러심")
                       # ... or a comma after a promise or a request, as a long message strings its sentences ("방
                       # 치워놓을게, 앙투안 어머님 잼 한 병만 훔쳐 와", "꼭 말해줘, 방 치워놓을게")
                       r"|(?<=[" + _FINAL_L + r"]게),\s+(?=[가-힣])|(?<=[줘놔]),\s+(?=[가-힣])"
                       # ... or a comma after a polite statement's ending, as a long 해요체 message strings its
                       # sentences ("당화혈색소가 7.8이 나왔어요, 원장님이 ...", "재희가 그저께 캐나다로 돌아갔어요, 공항에서 ...")
                       r"|(?<=[가-힣]요),\s+(?=[가-힣])"
                       r"|(?<=[가-힣]냐)\s+(?=[가-힣])(?!이러|그러|하시|하심|하더|하길|하면서|카더|캐|라고|그카)|(?<=[았었였했겠갔왔됐봤났셨는" + _FINAL_N + r"]다)\s+(?=[가-힣])(?![왔오와온올하해치카캐그])"
                       # ... or after hearsay or what was found ("강아지들 이사하면 좀 그렇다더라 보리는 나 이사가면 ...", "포켓몬 가방
                       # 사줬는데 12만 원이더라 요새 가방이 머 그래 비싸노"; not 경상도's 카더라, which goes on with what was said:
                       # "180만원 카더라 청학동 ... 박사장이 해준다"), or after
                       # what something is ("보리는 우리집 말티즈에요 6살ㅋㅋ 또 올게요")
                       r"|(?<=[가-힣]더라)(?<!카더라)\s+(?=[가-힣])|(?<=[에예]요)\s+(?=[가-힣\d])"
                       # ... or after a polite past ("학원을 바꿨어요 광안동에 있는 ...", voice-typed without marks)
                       # (its tears after it too, up to three: "손목이 부러지셨어요ㅠㅠ 분리수거하러 ...")
                       r"|(?:" + "|".join(rf"(?<=[{_PAST_SYLLABLES}]어요[ㅠㅜ]{{{k}}})" for k in range(4)) + r")\s+(?=[가-힣])"
                       # ... or after a promise, its laugh or tears after it ("어묵은 내가 박스로 챙겨줄게 ㅋㅋ 라떼 간식도")
                       r"|(?:" + "|".join(rf"(?<=[{_FINAL_L}][게께]{gap}[ㅋㅎㅠㅜ]{{{k}}})" for gap in ("", " ") for k in range(1, 5)) + r")\s+(?=[가-힣])"
                       # ... or after a past in 경상도's 대이 ("안동병원가서 혈압약 타왔대이 의사선생님이 ...")
                       r"|(?<=[" + _PAST_SYLLABLES + r"][대데]이)\s+(?=[가-힣])"
                       # ... or in 강원도's 드래 ("원주농고 21회 열두명 왔드래 너 안와서 다들 욕하드라")
                       r"|(?<=[" + _PAST_SYLLABLES + r"]드래)\s+(?=[가-힣])"
                       # ... or in 하오체's past, as older speakers write it ("농협 가서 영농자금 2천 빌렸소 모종값 비료값 ...",
                       # "가게 문 닫았수 오늘은")
                       r"|(?<=[" + _PAST_SYLLABLES + r"][소수])\s+(?=[가-힣])"
                       # ... at an emoticon standing between words ("전해줘 ^^ 오마카세"), and before "I" opens
                       # a clause after a statement's 다 ("오마카세 부럽다 나는 어제 ...")
                       r"|\s+(?:\^\^+|;;+)\s+(?=[가-힣])|(?<=[가-힣]다)(?<!어쩌다)\s+(?=(?:나는|나도|내가|저는|저도|제가|우리)\s)"
                       # English texting ends one with an emoji instead of a mark ("all week 😂 Tell him...")
                       r"|(?<=" + fact_dates.EMOJI + r")\ufe0f?\s+(?=" + relevance.UPPER + r")")
# 반말 texting strings its sentences without marks: a plain past ends one, as a plan made in texting's ~함 does
# ("금요일에 헤이딜러로 넘기기로 했어 270만원 받기로 함 12만 키로 탄 거 치고"); not before a word that quotes it or goes on
# with it ("했어 라고", "먹었어 했더니", "멋있어 보이긴": not 있 or 겠), nor before a word alone after it ("죽녹원 갔다왔어
# 수요일날") or a phrase that only says more of it ("목걸이 같이 골랐어 작은 하트 목걸이": what follows ends on no
# predicate, ``_KO_PREDICATE_END``), nor in a question asked without its mark ("돈 얼마 들었어 한 10만원?": ``_KO_ASKING``)
_KO_RUN_ON = re.compile(r"(?:(?<=[" + fact_dates.KO_PAST_SYLLABLES + r"]어)|(?<=기로\s함)|(?<=기로함))[ \t]+(?=[가-힣\d]\S*[ \t]+\S)"
                        r"(?![왔오와온올하해했치카캐그이라보])")
_KO_ASKING = re.compile(r"(?<![가-힣])(?:얼마|뭐|뭘|언제|어디|누구|누가|왜|어떻게|어케|몇|무슨|어느)")
_KO_PREDICATE_END = re.compile(r"[가-힣](?:다|어|요|음|함|지|네|냐|까|래|대|죠|야|게|께|자|라|니|데|여|유|댜|제|나)[\s~^ㅋㅎㅠㅜ]*$")


def _ko_run_ons(text: str) -> str:
    """``text`` with a line break where a Korean sentence ends without its mark (``_KO_RUN_ON``)."""
    out, start = [], 0
    for m in _KO_RUN_ON.finditer(text):
        if (not _KO_ASKING.search(re.split(r"[.!?\n]", text[start:m.start()])[-1])
                and _KO_PREDICATE_END.search(re.split(r"[.!?\n]", text[m.end():])[0])):
            out.append(text[start:m.start()])
            start = m.end()
    return "\n".join([*out, text[start:]])


_EMOJI_END = re.compile(fact_dates.EMOJI + r"\ufe0f?$")
# A numbered list in a message ("Two big news: 1) Larissa's visa was approved ... 2) I passed my
# probation!"): each item is a sentence of its own, without its number.
_ITEM = re.compile(r"\s+(?=\(?\d{1,2}\)\s)")
_ITEM_NUMBER = re.compile(r"^\(?\d{1,2}\)\s+")
_LINE_NUMBER = re.compile(r"(?m)^([ \t]*)(\d{1,2})\.[ \t]+(?=\S)")
# Texting also ends a clause with an emoji: one after it that opens on what the other party just
# told of is a remark on their thing ("I will get cold just watching 🥶 snowblower sounds like some
# gora luxury item" after "I finally bought a snowblower", "the upside down wardrobe 😂 poor
# Kartoffel, ..." after their cat's move), not more of the visitor's sentence.
_EMOJI_THEN_WORD = re.compile(r"(?<=" + fact_dates.EMOJI + r")\ufe0f?\s+(?=(?:poor\s+|lucky\s+)?([A-Za-z]+)\b)")


def _emoji_breaks(text: str, heard: frozenset[str]) -> str:
    """``text`` with a sentence break (a new line) at each emoji ending a clause before a word of
    ``heard``, or before news of the visitor's own told without its subject ("Lagi doesn't miss
    anything eh 😂 went to Specsavers on Saturday")."""
    def cut(m: re.Match[str]) -> str:
        clause = re.split(r"[.!?\n]", text[: m.start()])[-1]  # (an emoji after "!!" ends no clause of its own)
        return "\n" if re.search(r"\w", clause) and (relevance.stem(m.group(1).lower()) in heard
                                                     or _news_without_subject(text[m.end():])) else m.group(0)
    return _EMOJI_THEN_WORD.sub(cut, text)


def _news_without_subject(text: str) -> bool:
    """Whether English ``text`` opens on news told without its subject ("went to Specsavers on
    Saturday") that does not point back at what came before it ("picked it up Saturday", "brought
    her home": the emoji before those ends no news)."""
    return (bool(_SUBJECT_DROPPED.match(text)) and not re.search(r"[가-힣]", text)
            and not re.match(r"(?:\S+\s+){0,4}?(?:it|her|him|them|one)\b", text, re.IGNORECASE))

_CLAUSE = re.compile(r"\s*(?:(?<!\d)[,:]|[,:](?!\d)|;|\s[-\u2013\u2014]+\s|\.\.\.+)\s*")  # (not inside a number or a time: 2,100, 3:12)
_LEAD = re.compile(
    # (not a name's first word: "Great North Run on Sunday"; and a Korean address by name: "마루 씨, 저 하노이 출장 잘 다녀왔어요")
    r"^(?:[가-힣]{2,3}\s?(?:씨|님)(?:\s*,|(?=\s+(?:저|나|제가|내가|저는|나는|저희|우리)(?![가-힣])))\s*"
    # a letter's salutation ("Dear Pip,", "Good morning Pip,")
    r"|(?:dear|good\s+(?:morning|afternoon|evening))(?:\s+(?-i:" + relevance.UPPER + r"[\w'-]*))?[,.!]"
    r"|(?:yeah|yes|yep|yup|aye|nah|naw|wow|oh|ah|aw+|hey|hi|hello|thanks|thank you|(?:ha){2,}h?|(?:he){2,}|k{3,}|(?:ja){2,}j?|(?:rs){2,}|lol|lmao|well|so|actually|honestly|obviously|apparently|seriously|totally|"
    r"absolutely|sure|of\s+course|course(?=\s*[.!,])|ofc|definitely|certainly|for\s+sure|omg|(?:oh\s+)?my\s+(?:god|gosh|goodness)|ok|okay|hmm+|um+|yay|(?:cool|great|awesome|right|true|exactly)(?!\s+(?-i:" + relevance.CAPITALISED + r"))|and|but|also|anyway|btw|"
    r"by the way|to be honest|you know|guess what|(?:(?:big|other|good|bad|some|more|quick|fun|ok|okay)\s+)?(?:news|update)"
    r"(?=\s*[:!-]))\b[\s,!.:-]*)+",
    re.IGNORECASE,
)
# Words that carry no fact: a sentence needs three others to be worth keeping.
_HOLLOW = {
    "think", "know", "really", "thing", "things", "glad", "happy", "great", "awesome", "amazing", "love", "feel", "sure",
    "totally", "definitely", "hear", "sound", "wow", "thank", "thanks", "lol", "just", "so", "too", "very", "much",
    "lot", "also", "like", "good", "nice", "cool", "wait", "hope", "agree", "mean", "guess", "right", "yeah", "they",
    "them", "their", "we", "our", "us", "been", "have", "has", "had", "am", "was", "were", "will", "would", "could",
    "should", "can", "all", "always", "never", "something", "anything", "everything", "some", "one", "get", "got",
    "im", "ive", "id", "ll", "not", "don't", "dont", "there", "here", "now", "then", "when", "what", "way", "lately",
    "pretty", "kind", "bit", "still", "even", "make", "made", "see", "look", "time", "day", "days", "wish", "well",
    "want", "need", "going", "go", "doing", "do", "did", "done", "said", "tell", "told", "talk", "excited", "proud",
    "grateful", "thankful", "appreciate", "meant", "lucky", "blessed", "true", "super", "such", "it's", "that's",
    "이", "그", "저", "제", "정말", "너무", "진짜", "그냥", "좀", "많이", "것", "거", "같아요", "있어요", "했어요",
}
_THIRD_PERSON = [
    # (texting writes "i": "i rolled my ankle"; not the "i" of a name, "cama-i")
    (re.compile(r"\b[Ii] am\b"), "they are"), (re.compile(r"\b[Ii] was\b"), "they were"), (re.compile(r"\bI'm\b", re.I), "they're"),
    (re.compile(r"\bim\b", re.I), "they're"), (re.compile(r"\bive\b", re.I), "they've"),  # ... and "im", "ive"
    (re.compile(r"\bI've\b", re.I), "they've"), (re.compile(r"\bI'd\b", re.I), "they'd"), (re.compile(r"\bI'll\b", re.I), "they'll"),
    (re.compile(r"(?<!-)\b[Ii]\b(?!\.e\.)(?!-)"), "they"), (re.compile(r"\bmyself\b", re.I), "themselves"), (re.compile(r"\bmy\b", re.I), "their"),
    (re.compile(r"(?<!\bthe )(?<!\bsalt )(?<!\bcoal )(?<!\bgold )\bmine\b", re.I), "theirs"), (re.compile(r"\bme\b", re.I), "them"),
]
_RELATIONS = (
    "wife|husband|partner|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|mom|mum|mother|dad|father|sister|brother|"
    "son|daughter|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|best friend|friend|"
    "colleague|coworker|boss|roommate|neighbor|neighbour|mentor|teacher"
)
_PETS = ("dog|puppy|pup|cat|kitten|kitty|bird|parrot|budgie|cockatiel|hamster|gerbil|rabbit|bunny|turtle|tortoise|fish|horse|pony|"
         "snake|lizard|gecko|ferret|guinea pig|hen|chicken|goat|"
         # (or by its breed, as owners say: "our shiba Kuma", "my staffy Tyson")
         "shiba|husky|collie|spaniel|poodle|pug|corgi|dachshund|terrier|retriever|labrador|beagle|greyhound|whippet|"
         "lurcher|staffy|staffie|chihuahua|schnauzer|shih tzu|tabby|moggy")
# (on the same line: a name opening the next is whom they turn to, "like my mother\nNeema sit down")
_NAMED = r"(?:,[^\S\n]*|[^\S\n]+)(?:(?:who is |who's )?(?:named|called)\s+)?((?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?" + relevance.CAPITALISED + r"+)\b"
_RELATION_RE = re.compile(r"\b[Mm]y\s+(?:(?:little|big|older|younger|oldest|youngest|eldest|new|old|late|baby|two|three)\s+)?(" + _RELATIONS + r")" + _NAMED)
_PET_RE = re.compile(r"\b(?:[Mm]y|[Oo]ur)\s+(?:[a-z-]+\s+){0,2}?(" + _PETS + r")" + _NAMED)  # "my corn snake Custard"
_NAME_THEN_PET_RE = re.compile(r"\b(" + relevance.CAPITALISED + r"+),\s+(?:my|our)\s+(?:(?:new|old|little|baby|sweet)\s+)?(" + _PETS + r")\b"
                               r"|\b(" + relevance.CAPITALISED + r"+) is (?:my|our)\s+(?:[a-z]+\s+){0,3}?(" + _PETS + r")\b")
# Texted all in small letters ("my daughter kylie", "grandson jacko turns 6", "brett our son rang",
# "me mate robbo", "skip is our dog"): a word beside a relation or a pet is a name when it is no
# word of speech (_NOT_A_NAME) and no verb's form.
_SMALL_RELATIONS = _RELATIONS + "|grandson|granddaughter|stepson|stepdaughter|mate|missus|hubby"
_SMALL_NAME = r"([a-z][a-z'-]{2,})"
_ADJECTIVES = r"(?:(?:little|big|older|younger|oldest|youngest|eldest|new|old|late|baby|best)\s+)?"
_SMALL_RELATION_RE = re.compile(r"(?:\b(?:my|our|me)\s+" + _ADJECTIVES + r"(" + _SMALL_RELATIONS + r")"
                                # (without "my", only whom no one else would call so: "uncle callum" is a title)
                                r"|(?:^|[.!?,:;]\s*|\band\s+)(husband|wife|hubby|missus|grandson|granddaughter))\s+"
                                + _SMALL_NAME + r"\b(?!')"
                                r"|(?:^|[.!?,:;]\s*)" + _SMALL_NAME + r",?\s+(?:is\s+)?(?:my|our)\s+" + _ADJECTIVES
                                + r"(" + _SMALL_RELATIONS + "|" + _PETS + r")\b")
_NOT_A_NAME = relevance.STOP_WORDS | frozenset(relevance._IRREGULAR) | frozenset(
    "and but or so then too also just still always never now here there who that what when where all both "
    "put said says let set cut hit had has got gets was were did does can will would could should must might "
    "came come went goes rang ring told tells made makes took takes keeps lives works reckons thinks wants needs "
    "loves likes hates sent gave bought paid lent sat slept woke fed hung meant threw "
    "back home out over off up down away again later today yesterday tomorrow tonight "
    "if unless though although whether once til till until since as after before because maybe "
    "think thought guess reckon hope know knew mean wish bet suppose swear "
    "more less much most many very really quite pretty rather even ever than only enough around "
    "from by into onto near without through across behind under beside between among".split()) | {
    d.lower() for d in calendar.day_name}  # ("tuesday i hurt my back": the day it was, no one addressed)


# A small word opening a message, or a sentence in it, before "i" or "it" ("mo its lorraines birthday
# saturday", "mo im a grandad again", "... dared me to try his green curry. mo it was unreal"), or one
# in capitals ("TAYO I GOT INTO OHIO STATE"): whom they text, when it is no word of speech, no
# interjection and no verb's form.
_SMALL_VOCATIVE = re.compile(r"(?:^|(?<=[.!?]\s))\s*([a-z]{2,8}|[A-Z]{2,8})\s+(?=(?i:i|im|ive|i'm|i've|it|its|it's)\s)")
_INTERJECTIONS = frozenset("yeah yep yup yes nah no well ok okay hey hi hello sorry tbh lol lmao omg ugh ha haha hmm oh ah aw "
                           "anyway right plus cos coz wow damn shit bloody yay omfg wtf "
                           "ya yah yeh aye ja naw nope ho".split())  # (and as the islands and the north say yes and no)


def _small_name(word: str) -> bool:
    """Whether a word texted small beside a relation may be its name: not a word of speech, nor a verb's form."""
    return word not in _NOT_A_NAME and not re.search(r"(?:ed|ing|ly|s)$", word)


_WORK_RE = re.compile(r"\bI(?:'m| am)?\s+(?:currently\s+|now\s+)?(?:work(?:ing)?|employed)\s+(as|at|for)\s+(?:an?\s+|the\s+)?([^.,!?;]{2,60}?)(?=\s+(?:and|but|because|since|for|in|at|near|where|now)\b|[.,!?;]|$)", re.IGNORECASE)
_STUDY_RE = re.compile(r"\bI(?:'m| am)?\s+(?:currently\s+|now\s+)?(?:study(?:ing)?|major(?:ing)?\s+in|majored\s+in)\s+([^.,!?;]{2,40}?)(?=\s+(?:and|but|because|at|in|since)\b|[.,!?;]|$)", re.IGNORECASE)
_AGE_RE = re.compile(r"\bI(?:'m| am| just turned| turned)\s+(\d{1,3})(?:\s+years?\s+old)?\b(?!\s*(?:minutes|hours|days|weeks|months|%|km|miles|times))")
# Frames around what they tell ("I wanted to tell you about my trip", "did mom tell u") are not about the other party.
_FRAME = re.compile(
    r"\b(?:I\s+(?:just\s+)?(?:wanted|want|have|had|need|needed)\s+to\s+(?:tell|show|update)\s+you(?:\s+(?:about|that))?"
    r"|let\s+me\s+tell\s+you(?:\s+about)?|(?:did|have|has)\s+(?:I|\w+)\s+(?:tell|told|shown?)\s+(?:you|u)(?:\s+(?:about|that))?"
    r"|I\s+(?:told|tell|showed)\s+you(?:\s+(?:about|that))?|as\s+you\s+know|you\s+know\s+what|guess\s+what"
    r"|(?:you|u|ya)\s+know|(?:you|u)\s+see|to\s+be\s+honest(?:\s+with\s+you)?|thanks\s+for\s+asking|since\s+we\s+last\s+(?:spoke|talked|chatted)"
    # anyone's "you" in an idiom ("he'd herd the grandchildren if you let him"), not the listener's
    r"|if\s+you\s+let\s+(?:him|her|them|it)|you\s+never\s+know|you'd\s+think|as\s+you\s+do|mind\s+you"
    # ... and what heads off the listener's question ("rocky's fine before you ask")
    r"|before\s+(?:you|u)\s+ask|in\s+case\s+(?:you|u)(?:'re|\s+are|\s+were)\s+wondering|if\s+(?:you|u)\s+must\s+know"
    # ... and whose advice it followed ("got the Omron cuff from Meijer like u said", "went to the doctor
    # like you and Ma been on me about"): the deed is theirs
    r"|(?:,\s*)?(?:just\s+)?(?:like|as)\s+(?:you|u|ya|yu|yuh)(?:\s+and\s+\w+)?\s+(?:said|say|told\s+(?:me|us)|tell\s+me|suggested"
    r"|recommended|asked|wanted|been\s+(?:\w+\s+){0,3}?about)"
    # (and in Korean: "니 말대로 부민병원 가가 지난주에 수술했다", "언니 말처럼 동네 병원 갔어요")
    # (opening its clause: not after whose title it is, "한지민 선배 말대로", "재활 선생님 말대로")
    r"|(?:^|(?<=[,.!?~ㅋㅎㅠ]\s)|(?<=[,.!?~])|(?<=그리고\s)|(?<=근데\s)|(?<=그래서\s))(?:니|네|너|당신|언니|누나|형|형님|오빠|선배|선배님|선생님|쌤)\s?(?:말대로|말마따나|말처럼|말한\s?대로|말한\s?것처럼)(?![가-힣])"
    # ... and whom it is passed on to, before a deed of their own ("tell shelley i went into elverys and paid 95
    # euro"; not word sent, "tell her i said congrats", "tell him we're praying for him")
    r"|^tell\s+[a-z]+\s+(?:that\s+)?(?=(?:i|we)\s+(?:just\s+|finally\s+)?(?!(?:said|needed|wanted|loved|missed)\b)"
    r"(?:[a-z]{2,}ed|went|got|bought|paid|made|did|took|found|sold|ran|won|lost|saw|came|left|sent|gave)\b))\b",
    re.IGNORECASE,
)
# "Researching adoption agencies.", "Just got back from Jeju.": the first person, unsaid.
_SUBJECT_DROPPED = re.compile(
    # (after when, as texting puts it first: "Summer working at Nando's", "Today going for the scan")
    r"^(?:(?:this\s+)?(?:summer|winter|spring|autumn|today|tonight|tomorrow|now)\s+)?"
    r"(?:just\s+|recently\s+|finally\s+|also\s+|still\s+|nearly\s+|almost\s+|only\s+|already\s+|never\s+)?(?!(?:nothing|something|everything|anything|thing|being|morning|evening|sounds|looks|seems|won['\u2019]t)\b)"
    r"(?!(?:indeed|need|seed|speed|feed|hundred|sacred|naked|wicked|red|bed|shed|wed)\b)"
    r"(?:[a-z]{3,}ing|[a-z]{3,}ed|did|went|got|been|had|made|took|bought|found|met|learnt|spent|ran|gave|won|saw|drove|"
    r"swam|wrote|ate|sold|built|broke|lost|paid|caught|fell|grew|heard|sent|became|rode|left|kept|brought|told|taught|quit|born|planning|"
    # (and what they mean to do: "Want to do Cape York in the July hols"; not a farewell, "gonna go")
    r"hoping|(?:want\s+to|wanna|gonna|need\s+to|have\s+to)(?!\s+(?:go|be)\b))\b",
    re.IGNORECASE,
)
# A participle opening a sentence, of what was just named without a verb ("ruby jean. born thursday
# mornin", "the new van. delivered on monday").
_OF_THE_NAMED = re.compile(r"^(?:born|delivered|diagnosed|named|christened|arrived|fixed|finished|sold|collected|picked up)\b",
                           re.IGNORECASE)
# ... and so is one after a short lead with no verb ("Home safe, landed Auckland Tuesday gone", "All
# good, got the keys"), a past deed ("Perfect, sending that as is" answers what the other party sent).
_VERBLESS_LEAD = re.compile(r"^(?:[\w']+\s+){0,3}[\w']+,\s+(?=[a-z])(?![a-z]+ing\b)")


def _after_lead(sentence: str) -> str:
    """``sentence`` without a short lead with no verb before its first comma (``_VERBLESS_LEAD``);
    "" when it has none."""
    lead = _VERBLESS_LEAD.match(sentence)
    return sentence[lead.end():] if lead else ""


def _begins_with(sentence: str, *patterns: re.Pattern[str]) -> bool:
    """Whether ``sentence`` opens on one of ``patterns``, itself or after its verbless lead
    (``_after_lead``): "got the keys", "All good, got the keys"."""
    rest = _after_lead(sentence)
    return any(p.match(sentence) or (rest and p.match(rest)) for p in patterns)


# A request to the agent ("Please change the address") or a wish for the other party ("Take care")
# is what they want done, not who they are.
_REQUEST = re.compile(
    r"^(?:please|pls|kindly|let's|lets|help me|check(?!\s+engine)|tell|show|send|ask|bring|remind me|take care|give|greet|have fun|enjoy|"
    r"buy|thank(?!\s+(?:you|u|ya|goodness|god|heavens)\b)|"
    r"have a (?:lovely|good|nice|great|fab|brilliant|safe)|"
    r"say hi|good luck|congrats|congratulations|gratuliere|gute\s+besserung|get\s+well|best\s+wishes)\b|\bplease\b"
    r"|\b(?:good luck|hi|hello|love|hugs?|kisses|congrats|well done)\s+from\s+(?:me|us)\b"  # "tell them good luck from me"
    # (줘 ends a request wherever it stands: "박스 몇개 깔아줘 숨을데 있어야 적응함", "초안 써줘 짧게")
    r"|(?<=[가-힣])줘\s"
    r"|(?:주세요|줘요|줘|주십시오|주실래요|주시겠어요|부탁해요|부탁드려요|부탁합니다|부탁드립니다|축하해|축하해요|축하드려요|축하드립니다"
    r"|축하합니다|(?<=[가-힣])봐|(?<=[가-힣])봐요|(?<=[가-힣])놔|주고요|주시고요|마세요|말아요|말구요|말고요"
    r"|시라고\s*해|시라고\s*해요"  # (an order passed on: "형부 살살 하시라고 해")
    r"|(?<![가-힣])(?:말|하|먹|가|와|오|쉬|있|자|조심하)거라(?=[.!?~ㅋㅎ\s]|$)"  # (as an elder bids: "보리 너무 굶기지 말거라")
    # the plain imperative ("살살 해라", "먹어라", and fused with the stem: "다녀라", "시켜라", "와라"; not after a past,
    # as 전라도 tells one: "어제 소안도 들어가서 김장했어라")
    r"|해라|(?<![" + fact_dates.KO_PAST_SYLLABLES + r"])어라|아라|캐라|마라|녀라|져라|켜라|봐라|와라|줘라|워라|셔라|려라|겨라|껴라|빼라|가라|자라|써라|둬라|놔라|(?<![가-힣])사라|타라"
    # (... as 제주 and 충청 say 해라 and 마라: "이해허라", "걱정허지 말라"; not a noun's 허 before 라, "장롱면허라")
    r"|(?<![면특])허라|말라"
    # (... and as 전라도 and 경상도 say it: "츄르 하나씩 주라", "고생했다 해주쇼", "그렇게 꼬셔보쇼")
    r"|(?:(?<=\s)|(?<=[해사쳐봐여어아워켜려겨와다]))주라|(?:주|보|하|가|오|드|해|사|와|봐|줘|셔)쇼"
    # (and a wish sent off with 잘 ... 고: "들어가라 두부 모찌 잘 키우고", "잘 지내고"; not 잘하고, what one is good at)
    r"|(?<![가-힣])잘\s*(?:키우|지내|먹|자|쉬|챙기|챙겨|있|놀|다녀오|들어가)고)[.!?~^ㅋㅎㅠㅜ\s]*$"
    # ... and as 경상도 says 줘, ~도 ending the sentence ("합정 집 사진 보내도", "안부 전해도"); not what is
    # conceded ("지금은 안 해도")
    r"|(?<![안못]\s)(?:보내|전해|알려|가르쳐|챙겨|갖다|가져다|말해|사|줘)도[.!?~^ㅋㅎㅠㅜ\s]*$"
    # ... and 하게체's request, ~주시게 and ~주게 ("넥카라 쓴 두부 사진 좀 보내 주시게", "날 잡히면 알려 주게")
    r"|(?<=[가-힣\s])주(?:시)?게[.!?~^ㅋㅎㅠㅜ\s]*$"
    # leave to come, given to the listener, ending the sentence ("보리 대전에 데려와도 되는데")
    r"|(?:와도|오셔도)\s*(?:돼|되는데|돼요|되는데요|됩니다|되니까)[.!?~^ㅋㅎㅠㅜ\s]*$"
    # a demand with no verb ("콩이 사진 빨리!!!": the photo, now), not a verb hurried ("가고 싶다 빨리")
    r"|^(?:[가-힣\w]*[^\s다요어아지네]\s+){1,3}(?:빨리|얼른|어서)[.!?~^ㅋㅎㅠㅜ\s]*$"
    # a proposal ("부산 가면 마라탕도 먹자": let's...), not a noun ending in 자 (여자, 의자, 피자), nor sleep that
    # does not come ("밤에 잠을 잘 못자")
    r"|(?<![여남의과모부감상혼기환숫글왕피액원제학저투전독회효이주역사])(?<!못)(?<!못\s)(?<!안)(?<!안\s)자[.!?~ㅋㅎ\s]*$",
    re.IGNORECASE,
)
# An opinion or reaction ("I bet the kids loved it", "I hope Oliver feels better", "I'd love to see
# them") is about what they were told, unless the sentence also says something of their own.
_OPINION = re.compile(
    r"\bI(?:'m| am|'d)?\s+(?:really\s+|totally\s+|just\s+|so\s+|also\s+|do\s+|always\s+)?(?:think|thought|bet|guess|reckon|hope|wish|agree|say|"
    r"believe|imagine|suppose|know|knew|sure|glad|happy|sorry|love that|love how|saw the (?:pic|photo|picture)s?|can't picture|cannot picture|can't imagine|cannot imagine|can't believe|cannot believe|"
    r"can't wait|cannot wait|love to|like to)\b"
    r"|^(?:i(?:'m|\s+am|m)?\s+)?(?:just|only)\s+saying\b[.!]*$"  # ("I am only saying. Khalid needs company apart from Biscuit")
    r"|^(?:still\s+|can't stop\s+)?(?:thinking|dreaming)\s+(?:about|of)\b"  # "Still thinking about Yusuf's corn"
    r"|^(?:[\w']+\s+){0,3}(?:sounds|looks|seems)\s+(?:so\s+|really\s+|pretty\s+)?[a-z]+[.!]*$"  # "Sailing sounds amazing"
    r"|^(?:[\w']+\s+){0,3}(?:sounds|sounded)\s+(?:like|as if)\b"  # "Siobhan sounds like she had a better handover"
    # a guess at how someone else feels ("Marcus must be pumped", "she must be so proud"), not a duty ("I must be at work by 6")
    r"|^(?!(?:i|im|we)\b)(?:[\w']+\s+){1,2}must\s+be\s+(?:so\s+|really\s+)?(?!(?:at|in|on|by|there|here|home|back|up|out|off)\b)[a-z]+\b"
    # "a greyhound in the bath is the best thing ive heard all week"
    r"|\bbest (?:thing|news) (?:I've|ive|I have|I)\s+(?:ever\s+)?(?:heard|seen|read)\b"
    r"|\b(?:wanna|want to|dying to|desperate to|can't wait to)\s+meet\b",  # "The kids are desperate to meet Juniper"
    re.IGNORECASE,
)
# "hows the pottery": a question without its mark (texting, dictation).
_HOW = r"(?:hows|how's|how is|how was|how are|how did)\b"
_HOW_ASKS = re.compile("^" + _HOW, re.IGNORECASE)
# A message passed on to someone ("tell her I said hello", "give Juno a rub from me", "happy
# Valentine's to Sandra", "say hi to Tom", "night Jo, kiss Biscuit for me"): words for the other
# party's people, not the visitor's news.
_RELAY = re.compile(r"^(?:(?i:and|but|so)\s+|(?i:(?:good\s*)?(?:night|nite|morning|bye))\b[^A-Za-z]*(?:" + relevance.UPPER + r"\w+\b[^A-Za-z]*)?)?"
                    r"(?:(?i:tell|give|send|kiss|hug|cuddle|pat|scratch)\s+(?:(?i:him|her|them)\b|" + relevance.UPPER + r"\w+"
                    # (texting writes the name small: "tell julien his cousin remy gonna make it up to him")
                    r"|(?!(?:the|a|an|my|our|me|us|it|that|this|everyone|everybody|anyone|someone|people|stories|lies|jokes|time"
                    r"|off|apart|myself|ourselves)\b)[a-z]{3,}\b(?=\s+(?:his|her|their|i|we|im|hi|hello|congrats|thanks|happy"
                    r"|that|from|for|and)\b|[\s.!😂🤣❤️]*$))|(?i:say\s+(?:hi|hello|hiya))\b"
                    # ... and love sent to them ("Kiss to Ida and Pepper", "hugs to the kids", "greetings to Ruth")
                    r"|(?i:kiss(?:es)?|hugs?|love|greetings|regards|salaam|salaams|salam|salams)\s+to\s+(?:(?i:him|her|them|the\s+\w+)\b|" + relevance.UPPER + r"\w+)"
                    r"|(?i:kiss|hug)\s+(?i:everybody|everyone|all)\b"  # ("kiss everybody, and Bruno too")
                    # ... and what they must keep from someone, ending the clause ("so don't tell Becky", "dont tell her yet")
                    r"|(?i:don['\u2019]?t|do\s+not)\s+(?i:tell|say\s+(?:anything|owt|nothing)\s+to)\s+(?:(?i:him|her|them)\b|" + relevance.UPPER + r"\w+)"
                    r"(?=\s*(?i:yet|ha+|lol|though|tho)?\W*$)"
                    r"|(?i:happy|merry)\s+[\w']+(?:\s+[\w']+)?\s+to\s+" + relevance.UPPER + r"\w+"
                    # ... and from their own people and pets ("Peanut says hi to Duchess", "Mum sends her love to Joanne")
                    r"|" + relevance.UPPER + r"\w+\s+(?i:says|sends)\s+(?i:hi|hello|hiya|(?:her\s+|his\s+|their\s+)?love|hugs|kisses|congrats)\s+to\s+(?:(?i:him|her|them|the\s+\w+)\b|" + relevance.UPPER + r"\w+))")
_NEWS_LEAD = re.compile(r"^\W*(?:(?:ok|okay|so|oh|right|well|omg|ooh|and)\W+"
                        # (or after whom it is told to, or what it goes on from: "brate big news, Amra have new job!",
                        # "and big news from nathalie: she's going on sabbatical")
                        r"|(?!(?:no|not|any|your|ur|their|his|her|the|that|this|what|for|my|our|then|or|more|other)\b)[a-z]{2,10},?\s+"
                        r"(?=(?:big|good|great|exciting|huge|bad|sad|some)\s+news\b))?(?:(?:i(?:'ve|ve| have)?\s+)?got\s+(?:some\s+|big\s+|good\s+)?news|(?:the\s+)?(?:big|some|good|great|bad|sad|other|"
                        r"more|exciting|huge|family)\s+news"
                        # (or trouble, in Korean: "그리고 큰일 났어요. 미경 씨가 그저께 그만두겠다고 하더라고요")
                        # (or news of one part of their life, headed so: "Car news. Astra sold!", "work news: ...", or "and
                        # other thing. letter from Mr Khan, rent go up", "news here not so good."; "my
                        # news." leads as it did, held with what it leads to)
                        r"|(?!(?:your|ur|yr|their|his|her|the|that|this|what|no|any|ya|yer|my|me|mi|ma|our|them|dem)\b)[a-z]+\s+news(?=\s*[.!:\u2013\u2014-])|guess (?:what|who)|speaking\s+of\s+\w+|(?:an)?other\s+thing(?=\s*[.!:\u2013\u2014-])|(?-i:[A-Z][a-z]+)\s+(?:has|had|got)\s+(?:some\s+|big\s+|good\s+|great\s+)?news(?=\s*[.!:])|news\s+(?:from\s+)?here(?=\s*[.!:,\u2013\u2014-]|\s+(?:not|is|are)\b)|(?:나\s+)?할\s*말(?:이)?\s*있어(?:요)?(?=\s*[.!~\n]|\s*$)|(?:(?:그리고|아|참|아참|근데|그런데)\s+)?(?:언니|형|누나|오빠|형님)?\s*(?:좋은|엄청난|큰|기쁜|대박|반가운)\s*소식(?:이)?\s*(?:하나\s*)?있어(?:요)?(?=\s*[.!~\n]|\s*$)|(?:(?:그리고|아|참|근데|그런데)\s+)?큰일\s*(?:났어|났어요|났다|났슈|났수|났당께|났데이)(?=\s*[.!~\n]|\s*$)|(?:i\s+)?(?:can(?:not|['\u2019]?t)|cant)\s+wait\s+to\s+tell\s+(?:you|u|ya)|wait\s+(?:till|til|until)\s+(?:you|u)\s+hear|(?:do\s+|did\s+)?(?:you|u|ya)\s+know\s+what\s+happen(?:ed|s)?|(?:quick\s+|small\s+|big\s+|an?\s+)?update(?=\s*[-:\u2013\u2014!]))\b",
                        re.IGNORECASE)


_ASIDE_WORDS = 8


def _without_opening_aside(sentence: str) -> str:
    """``sentence`` without the opinion or request that opens it before a comma ("i think so, i
    asked her to the wedding", "drive it till it dies i guess, i got 1,100 in savings", "tell marcus
    thanks, already got preapproved at onpoint"): in a run-on spliced with commas it is an aside,
    and what follows it still tells."""
    head, comma, rest = sentence.partition(", ")
    if (comma and len(head.split()) <= _ASIDE_WORDS and not re.search(r"[가-힣]", head)
            and not re.search(r"(?<=\s)(?!I\b|I')" + relevance.UPPER, head)  # (it names no one: "can't wait to see Paçoca, he's 12")
            and ((_OPINION.search(head) and _I.search(rest)) or (_REQUEST.search(head) and not _RELAYED_PLAN.match(head)))):
        return rest
    return sentence


def _opinion_only(sentence: str) -> bool:
    """Whether a sentence is only an opinion or a reaction (``_OPINION``), with nothing of their own in
    it: not when the opinion follows a clause that tells what happened ("he had a lipstick out me Avon
    bag Thursday, I thought he'd cut hisself": the news is theirs, the thought a comment on it; not
    "Whippets are the cats of the dog world, I always say")."""
    opinion = _OPINION.search(sentence)
    if opinion is None or _OWN.search(sentence) or len(_SUBJECT_I.findall(sentence)) >= 2:
        return False
    head = sentence[:opinion.start()]
    if re.search(r"\b(?:like|as|than)\s+$", head, re.IGNORECASE) and len(head.split()) > 3:
        return False  # (a likeness, "not a slipped disc like I thought", "worse than I thought": what was, not a view)
    # (what happened, then the thought: "nelly hurt her paw last wednesday, chasin a squirrel ..., honestly i
    # thought shed broke it", "jamie and kayleigh come round last sunday ... and i thought hang on")
    return not (re.search(r"(?:[,;]|\b(?:and|but|so))\s*(?:(?:honestly|tbh|and|so)\s+)?$", head, re.IGNORECASE)
                and len(head.split()) > 4 and (fact_dates.tells_a_past(head) or _A_PAST_DAY.search(head) is not None))


# A day gone by, named as texting names it ("last wednesday", "yesterday", "two weeks ago"): what a clause
# naming one tells happened, its verb bare or not ("come round last sunday").
_A_PAST_DAY = re.compile(r"\b(?:yesterday|last\s+(?:night|week|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|\w+\s+(?:days?|weeks?)\s+ago"
                         r"|the other day)\b", re.IGNORECASE)


def _news_lead_only(sentence: str) -> bool:
    """Whether a sentence only announces news ("got news", "bad news mo", "big news while im here",
    "Big news from here..."),
    not tells it ("Big news, I'm an aunt!")."""
    lead = _NEWS_LEAD.match(sentence)
    return lead is not None and re.fullmatch(r"\W*(?:(?:while|first|there)\b.*|from\s+here|\w+)?\W*", sentence[lead.end():]) is not None


# A word to whom they speak, a sentence or a clause of its own ("thanks juniper x", "sorry mum",
# "hi Mina"): it tells nothing, and the name is the listener's. (Not "night" or "morning": "night
# shift", "morning swim" are things they do.)
_TO_SOMEONE = r"\s+[^\W\d_]+(?:\s+x+)?[\s!.]*"
_SIGN_OFF = re.compile(r"(?:thanks|thank you|thx|ty|ta|cheers|sorry|bye|love you|hi|hey|hello|(?:khuda|allah) hafiz"
                       r"|고마워요?|고맙습니다|감사합니다|감사해요|미안해요?|죄송해요|죄송합니다|안녕)" + _TO_SOMEONE + "|x+", re.IGNORECASE)
# ... and love sent to their people after the news ("Love to trent and the girls", "big hugs to Wes and Carter"):
# nothing of the visitor's, though it follows what was.
# (... and Levantine's "Bousi Nour, salmili 3ala Fadi": kiss Nour, greet Fadi for me; and French's "bisous to all of you,
# and to Pistache", "courage to the father of Marc-André")
# ... and so is what a sign-off sends them at the end of a sentence of news ("yalla habibti, take care of your arm, kisses from
# all of us to Sabine and Adam", "And in spring we come to you, I promised. Kiss Arslan, salute to captain Emre", "salam to
# Sabine and kiss Adam and Krümel"), greetings extended as Ugandan English extends them ("extend greetings to Chris")
_SENT = (r"hugs|kisses|besos|besitos|abrazos|bisous|bises|regards|greetings|salaams?|salams?|salutes?"  # (what is sent "to" someone)
         r"|tanemmert|tanemmirt|merci|gracias|grazie|danke|shukran|asante|inkomu|ngiyabonga|fakafetai"  # (... and thanks, in the words of home)
         r"|hellos?|hi|bravo|congrats|congratulations")  # (... and hello and praise: "big hello to Olga", "Opa. Bravo to Dimitri")
_SENDS_LOVE_AFTER = re.compile(r"(?:(?:(?<=[,;])\s*|\s+and\s+|^)(?:(?:extend\s+(?:my\s+|our\s+)?|big\s+|lots\s+of\s+)?(?:" + _SENT + r")(?:\s+from\s+(?:all\s+of\s+)?(?:us|me|all)\b)?\s+to\s+"
                               r"|(?:kiss|greet)\s+(?:me\s+|for\s+me\s+)?(?-i:[A-Z]))"  # (and as German has it: "greet me Luis")
                               # (or love sent after an emoji: "Talk later 🙏 love to Aarav and Cookie")
                               r"|(?<=" + fact_dates.EMOJI + r")\s*(?:love|" + _SENT + r")\s+to\s+(?!you\b|u\b))[^.!?]*[.!?]*\s*$", re.IGNORECASE)
_SENDS_LOVE = re.compile(r"(?:(?:and|so|ok|okay)\W+)?(?:(?:say|send|give)\s+)?(?:(?:all\s+(?:my|our)|lots\s+of|much|big|extend(?:\s+(?:my|our))?)\s+)?"
                         # (thanks too, said or sent: "Say thanks to Heike"; not "Thanks to the physio my back is better")
                         r"(?:(?:love|hug|courage|pole(?:\s+sana)?|chur|(?:(?<=say\s)|(?<=send\s)|(?<=give\s))thanks|" + _SENT + r")\s+to\s+(?!you\b|u\b)|(?:bousi|bosi|salmili\s+(?:3ala|ala|3a))\s+\w)",
                         re.IGNORECASE)
# ... and so is "night juno" ending a message (mid-message, "night shift" is something they do).
# (its name may be gone: _without_called; and Bislama's, with the emoji after it: "gudnaet 🙏🍏")
_GOODNIGHT = re.compile(r"(?:(?:good\s*)?(?:night|nite|morning)|gudnaet|gudnait)(?:" + _TO_SOMEONE + r"|[\s!.]*)(?:" + fact_dates.EMOJI + r"\ufe0f?\s*)*",
                        re.IGNORECASE)
# Thanks for what the other party did ("Thank you both for an amazing week") tells nothing of them.
_THANKS = re.compile(r"^(?:thanks|thank you|thx|ty|tankiu|tenkyu|tenkiu)(?:\s+(?:so much|again|both|all|guys|everyone|tumas|tru))*\s+(?:for|both|all|guys)\b",
                     re.IGNORECASE)
_OWN = re.compile(r"\b(?:my|mine|our|ours|we|we're|we've|us|myself)\b", re.IGNORECASE)
_SUBJECT_I = re.compile(r"\bI(?:'m|'ve|'d|'ll)?\b")
_I = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my)\b", re.IGNORECASE)  # texting writes it small ("ollie and i broke up")
# (and the household it speaks for, as the subject: "we've cancelled benidorm"; not a promise, "we'll
# talk", nor two sides, "we both know")
_WE = re.compile(r"^(?:(?:but|and|so|aye|yeah|yes|well|anyway|oh)\W+)?we(?!['\u2019]ll)(?:['\u2019](?:ve|re|d)|ve|\s+have|\s+are)?\b(?!['\u2019]|\s+(?:both|all)\b)",
                 re.IGNORECASE)
# Texting leaves the subject out and the capital too ("interview tmrw w tidewell"): a dated sentence
# opening in lower case on no one else (he, she, it, you, a name) is theirs.
_TEXTED = re.compile(r"^(?!(?:he|she|they|it|it's|its|that|this|these|those|there|we|you|his|her|their|ur|u)\b)"
                     r"(?:[a-z]|\d(?!.*" + relevance.UPPER + r"))")  # (or a number opening a sentence with no capital: "2nd interview at...")
# Texting leaves the apostrophe out: "hes a PE teacher" goes on as "he's" does.
_TEXTED_PRONOUNS = "hes|shes|thats|theyre|theres"
# A sentence goes on about the previous one when it opens by pointing back at it ("It was so
# powerful."); one that opens with someone's name may be about the other party.
_GOES_ON = re.compile(r"^(?:it|it's|its|is|was|that|that's|this|these|those|they|they're|there|he|she|his|her|the|everyone|" + _TEXTED_PRONOUNS + "|"
                      r"everybody|so|and|but|then|plus|also|now|still|[가-힣]|\d[\d,.]*\s*[가-힣])", re.IGNORECASE)  # ("1학년 3반이고", "1,050만 원 받았네")
# A sentence that opens with a pronoun standing for what was just told ("She gave it to me when
# I was young", "It stands for love") says more about it, even when it speaks of them too: it joins
# the previous fact, so the thing it names and what is said of it are recalled together.
_POINTS_BACK = re.compile(r"^(?:it|it's|its|that|that's|this|these|those|she|he|they|they're|there|" + _TEXTED_PRONOUNS
                          # ... or "one" for the thing just named ("new one's called Trelegy", "the blue one's
                          # for emergencies"; not "no one", "had one slip")
                          + r"|(?:the\s+)?(?!(?:no|every|any|some|each|which|had|have|has|got|get|buy|bought|made|make|took|take|found|need|want|picked|ate)\b)[a-z]+\s+one(?:'s|\u2019s)?(?=\s)(?!\s+of\b)"
                          # ... or what it is put first, as Welsh puts it ("Hooker he is, so he was at the back of it", "Non her name is")
                          + r"|(?!(?i:how|what|who|where|why|when|that|this|there|here|whatever|however|wherever)\b)[A-Za-z]+(?:\s+[a-z]+)?"
                          r"\s+(?:he|she|it|they)\s+(?:is|was|are|were)(?=\s*[,.!]|\s*$|\s+(?:so|and|but)\b)"
                          + r"|" + relevance.CAPITALISED + r"+\s+(?:his|her|their)\s+name\s+(?:is|was)\b"
                          # ... or its name, the subject left out ("I open Etsy shop!! name is CaspianKilimNY")
                          + r"|name\s+(?:is|was)\b)\b",
                          re.IGNORECASE)
_NOT_TO_THEM = r"^(?!.*\b(?:you|your|ye|yous|u)\b)"  # (a sentence that says nothing to the other party)
# ... and so does a short one ending on a pronoun for it ("vet had to stitch it", "the kids adore him"),
# unless it speaks to the other party ("you'll love it").
_ENDS_ON_IT = re.compile(_NOT_TO_THEM + r"[^\W\d]+(?:\s+\S+){0,6}\s+(?:it|him|them)[\s.!]*$", re.IGNORECASE)
# ... and one telling who bought, fixed or took the thing just told of ("I sold the TVS. A man from Kawempe bought
# it as it is for 2.1m", "the garage towed it to Swindon"): the deal or the repair is theirs.
_TOOK_IT = re.compile(_NOT_TO_THEM + r"(?:[\w'-]+\s+){1,6}(?:bought|took|towed|fixed|repaired|collected|picked up"
                      r"|paid|offered|stole|nicked|delivered|installed|fitted|serviced|valued)\s+(?:it|them)\b", re.IGNORECASE)
# A capitalised word inside a sentence (not its first): a place, a person, a title ("Paris", "Rome").
_NAMED_THING = re.compile(r"(?<=\s)(?!I\b|I'|I\u2019)" + relevance.UPPER + r"[\w'-]+")
# Words that only colour speech: dropped from what is kept, so more of it fits a request.
# (not in a name: "Super C on Pie-IX", "the Super Bowl")
_FILLER = re.compile(r"\b(?:really|(?-i:(?!Super\s+[A-Z\d]))super|kinda|sorta|totally|literally|actually|basically|honestly|pretty much|"
                     r"so so|just|very)\s+", re.IGNORECASE)
# A lone name before a comma ("Gina, I got the job") is whom they speak to, not what they tell.
_VOCATIVE = re.compile(r"(?!(?:Yesterday|Today|Tomorrow|Tonight|Recently|Lately|Monday|Tuesday|Wednesday|Thursday|Friday|"
                       r"Saturday|Sunday)\b)" + relevance.CAPITALISED + r"+[!.]?")
# ... and in Korean, a bare word of two to four syllables opening the message before a mark ("누리, 저
# 왔어요", "선생님! 드디어 운전면허 땄어요"): not a time or a turn of speech, not one that ends as a
# verb, an adverb or a word with its particle, and not after their question ("목표 있어?" - "일본어!").
_KO_BARE_WORD = re.compile(r"[가-힣]{2,4}(?<![은는이가을를에도의로랑과와만요다죠고서면게히지네])")  # (no particle or ending)
_KO_VOCATIVE = re.compile(r"^\s*(?!(?:오늘|어제|내일|모레|요즘|최근|아까|방금|지금|이번|지난|다음|주말|근데|그런데|아니|그럼|그래서|그리고"
                          r"|그나저나|아무튼|암튼|사실|솔직히|드디어|결국|진짜|정말|일단|그냥|우와|대박"
                          # (nor an age or a count in words: "그 양반도 환갑 넘었을 텐디" - "예순넷. 우리 배 15년째여")
                          r"|(?:스물|서른|마흔|쉰|예순|일흔|여든|아흔)(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)?)\W)"
                          + _KO_BARE_WORD.pattern + r"\s*[,.!~]+\s+(?=\S)")
# ... and an exclamation, alone or before whom they call ("와아아아 선생님!!!!", "헐 누나", "꺄아아악 딸"):
# a cheer for what they just told, no news to be completed by what follows ("서아 너무 예뻐요").
# (and congratulations or relief in any speech level: "축하한다", "축하하오", "잘됐다!", "잘됐네요")
_KO_EXCLAIMED = re.compile(r"(?:와[아앙악]*|우와+|헐+|꺄[아악]*|캬+|헉+|대박|아이고+|어머나?|세상에"
                           r"|축하(?:해요|해|드려요|드립니다|합니다|한다|하오|해용|혀|햐)|잘\s?됐(?:다|네|네요|어|어요|소|구나|습니다))"
                           r"(?:\s+[가-힣]{1,4})?[\s.!~ㅠㅜㅋㅎ]*")
# ... and a cry that opens praise or pity, "우리" though it says ("아이구 우리 수련이 대단하다", "아이고 우리
# 강아지 고생했네"): a reaction to what was just heard, the listener's people called ours in fondness.
_KO_CRY_OPENS = re.compile(r"^\s*(?:아이고+|아이구+|어이구+|우와+|와+|헐+)(?![가-힣])")


def _ko_cried_out(sentence: str, when: str | None) -> bool:
    """Whether a Korean sentence is a cry of praise or pity at what was heard (``_KO_CRY_OPENS``,
    ending in ``_KO_REACTION``), naming no time of its own."""
    return when is None and bool(_KO_CRY_OPENS.match(sentence)) and bool(_KO_REACTION.search(sentence))


# A Korean clause that ends in thanks, in any form ("여러모로 고마웠습니다", "아무튼 오늘 고마웠어요"):
# to the listener, it tells nothing of the visitor (what came before it in the sentence still may).
# ... unless it tells what happened on a day gone, thanks and all ("지난주 화요일에 매매상사 사람이 와서 끌고갔는디
# 180만원 받았어야 십육년 탄차를 그만큼 쳐준게 고맙제": the sale is theirs)
_KO_DAY_GONE = re.compile(r"(?:어제|그저께|그제|엊그제|지난\s?주|저번\s?주|지난달|저번\s?달|지난\s?[월화수목금토일]요일|저번\s?[월화수목금토일]요일)"
                          r"[^가-힣]*[가-힣]*\s+(?:[가-힣]+\s+){2,}")
_KO_THANKS = re.compile(r"(?:고마웠|고마워|고맙|감사했|감사해|감사합|감사드)[가-힣]*[.!~^ㅎㅋㅠㅜ\s]*$")
# What the other party said, put back to them ("흑석동 밤길 어둡다며", "다이어트 한다며ㅋㅋ": you said...):
# theirs, not the visitor's.
_KO_YOU_SAID = re.compile(r"(?:다며|라며|다면서|라면서)[?.!~^ㅎㅋㅠㅜ\s]*$")
# ... and a sentence that only calls up what the other party spoke of, for what follows to tell ("아 그라고 니가 말한
# 우슬 있제", "니가 추천한 캐시워크 말이다"): no news of its own.
_KO_YOU_MENTIONED = re.compile(r"(?:[가-힣]+\s+){0,3}(?:니가|네가|너가|당신이|언니가|누나가|형이|형님이|오빠가|선생님이|쌤이)\s*"
                               r"(?:말한|말했던|말하던|얘기한|얘기했던|추천한|추천해준|알려준|보내준|소개한|소개해준)\s+[^.!?]{1,20}?\s*"
                               r"(?:있제|있잖아|있잖아요|있잖니|있지|있죠|말이다|말이야|말야|말이여|말여|말이에요|말입니다)[\s?.!~^ㅋㅎㅠㅜ]*")
MAX_WORDS = 60
# A sentence with neither a subject nor a verb of its own ("A small blue one in Oakridge.",
# "Acoustic, Thursday evenings, with a teacher called Marco.") elaborates on the one before it.
_SUBJECT_OR_VERB = re.compile(
    r"\b(?:i|we|you|he|she|they|it|this|that|there|is|are|was|were|am|be|been|has|have|had|do|does|did|will|would|"
    r"can|could|should|may|might|must|let's|im|ive|" + _TEXTED_PRONOUNS + r")\b|\w'(?:re|ve|m|ll|d)\b"
    # ('s as "is", not whose: "at Verdi's.", "tomatoes. Gardener's Delight.")
    r"|\w's\b(?!\s*(?:[.!?,;:)]|$)|\s+(?-i:[A-Z]))", re.IGNORECASE)
_FRAGMENT_WORDS = 15
# Family, partners and the boss called by what they are to the visitor ("Dad had his hip replaced",
# "Mum says hi", texted small: "mum had a fall", "husband dean is a plasterer", "gaffer's called
# tam"): the visitor's world, as "my dad" would be. English is spoken with the family words of many
# homes: "Achan's TMT came positive", "Amma took him", "Oma is 90", "Nanay is home", "Abbu had to
# get the ladder", "Apá is still doing dialysis", Hawai'i's "tutu wen fall". (Not "sis" or "bro": they are as often the listener, nor "lola", a name too.)
_KIN_WORDS = (r"dad|daddy|mum|mummy|mom|mommy|mam|mammy|ma|pa|mama|papa|da|dada|grandma|grandpa|granddad|grandad|"
              r"granda|gran|granny|nan|nana|nanna|oma|opa|nonna|nonno|abuela|abuelo|nanay|tatay|inay|itay|"
              r"amma|achan|appa|ammi|abbu|abba|umma|uppa|ammachi|appachan|nani|dadi|baba|apá|amá|mamá|papá|abuelita|abuelito|tutu|tūtū|"
              r"pape|mame|mutti|vati|"  # (as Low German and German say them: "Pape is in the hospital")
              r"bapai|"  # (and Konkani: "Bapai is in Victor hospital")
              r"husband|hubby|wife|girlfriend|boyfriend|gf|bf|fiance|fiancee|boss|gaffer")
_KIN_NAME = re.compile(rf"^(?!ma['\u2019]am)(?:{_KIN_WORDS})\b"
                       r"(?!(?-i:\s+" + relevance.UPPER + r"))", re.IGNORECASE)  # (not a title: "Mama Emeka", "Baba Yao" are someone else)


def _fragment(sentence: str) -> bool:
    """Whether ``sentence`` is a short fragment without a verb of its own: English without a subject
    or verb, Korean a noun with its particle and 요 ("대구 사는 언니랑 후쿠오카 3박4일이요", "남은 쑥으로요")."""
    if re.search(r"[가-힣]", sentence):
        return len(sentence.split()) <= _FRAGMENT_WORDS and bool(_KO_FRAGMENT.search(sentence))
    return (len(sentence.split()) <= _FRAGMENT_WORDS
            and not _SUBJECT_DROPPED.match(sentence) and not _SUBJECT_OR_VERB.search(sentence))


# (what opens on its subject: "We were at Solly's", "Grandma got good news")
_SUBJECT = re.compile(r"(?:i|we|he|she|they|it|you|my|our|their|his|her|" + relevance.UPPER + r"\w*)\b")


def _headline(first: str, then: str) -> str | None:
    """The news a message's first sentence heads, cried out without a verb ("driver trainer!!", "New
    job!"), when the next sentence (``then``) goes on without a subject of its own; else None."""
    if not first.endswith("!") or _SUBJECT.match(then) or len(then.split()) < 2:
        return None
    news = _capitalised(first.rstrip(" !"))
    return news if _fragment(news) and _says_two_things(_content(news)) else None


# The most words a sentence of a message that says "I" has, to lead into what the next tells of it.
_LEAD_WORDS = 6
_KO_FRAGMENT = re.compile(r"[가-힣\d](?:이요|으로요|로요|랑요|이랑요|까지요|부터요|만요)[.!~^ㅎㅋ\s]*$")
# A sentence right after a kept one that says why or how it felt ("I painted this after I visited
# the centre. I wanted to capture its warmth.") is the meaningful part of it: it joins it rather
# than standing alone without what it is about.
_WHY_OR_HOW = re.compile(r"^I\s+(?:(?:really|just|also|so)\s+)?(?:wanted|meant|tried|hoped|felt|feel|was trying|was hoping)\b"
                         r"(?!\s+(?:like\s+)?(?:you|your)\b)", re.IGNORECASE)
# ... and a question by its order, the verb before who it asks about ("is biscuit ready for me",
# "does she need her own certificate", "Does Yusuf have to salute you now"): he, she, they or a
# name, then a word; a name texted small only before what is asked of it (ready, ok, home, ...).
# Not the visitor's own dropped "I" ("Did it last Wednesday", "Is a bit stress", "Was so fun").
_ASKS_BY_ORDER = re.compile(
    r"^(?:(?i:and|so|also|oh|ok|okay|yes|yeah|btw)\W+)*(?i:is|are|was|were|does|did|do|has|have|can|could|will|would|should)\s+"
    r"(?:(?i:he|she|they)\s+\w|(?!" + "|".join(sorted(CALENDAR_WORDS)) + r")" + relevance.CAPITALISED + r"+\s+(?!(?i:is|was)\b)\w"
    # (not one's own thing: "did my back in on the boat two weeks ago", a deed told)
    r"|(?!(?:my|our|me)\s)(?![a-z]+(?:ed|ing|ly)\s)[a-z]+\s+(?i:ok|okay|alright|ready|home|back|coming|allowed|awake|around|feeling|better)\b)"
    # ... and how someone is doing, asked without its mark ("How Lionel doin", "how ur mom holdin up"; not "how my knee feels")
    r"|^(?:(?i:and|so|also|oh|ok|okay|btw)\W+)*(?i:how)(?:['\u2019]?s)?\s+(?:(?i:he|she|they|your|ur|yer)\s+|" + relevance.CAPITALISED + r"+\s+)"
    r"(?:(?!(?i:my|our|me)\b)\w+\s+)?(?i:doin[g'\u2019]?|goin[g'\u2019]?|feelin[g'\u2019]?|holdin[g'\u2019]?|gettin[g'\u2019]?\s+on|keepin[g'\u2019]?)\b")
# (the name without its possessive: "Larissa's visa" opens on Larissa; "O'Brien" keeps its apostrophe)
_OPENING_NAME = re.compile(r"(?:^|[:,]\s+)(?:[Pp]oor\s+|[Ll]ucky\s+)?(" + relevance.UPPER + r"[\w-]*(?:['\u2019](?!s\b)[\w-]+)*)(?:['\u2019]s\b|\s|,(?=\s))")
_PLACEHOLDER_NAMES = {"The", "This", "That", "And", "But", "He", "She", "They", "It", "We", "My", "Our", "Who", "When"}
_KO_SELF = {"저는", "저도", "저를", "제가", "저희", "저희는", "나는", "나도", "내가", "우리", "우리는", "저", "제", "내"}
_DATES = re.compile(r"\b(?:on|in|around|the week (?:before|after|of)|the weekend of)?\s*(?:\w+day\s+)?\d{1,2} (?:January|February|March|"
                    r"April|May|June|July|August|September|October|November|December) \d{4}"
                    r"|\d{4}년(?:\s*\d{1,2}월)?(?:\s*\d{1,2}일)?(?:부터 한 주)?")
_NOT_TOPIC_WORDS = relevance.STOP_WORDS | _HOLLOW | _KO_SELF | {
    "don", "doesn", "didn", "isn", "wasn", "aren", "won", "couldn", "wouldn", "shouldn", "haven", "hasn", "ve", "re", "ll",
    "합니다", "해요", "있어요", "있습니다", "했어요", "했습니다", "입니다", "이에요", "예요", "같아요", "거예요", "있는데", "부터",
    "좋아해요", "싫어해요", "좋아합니다", "싫어합니다", "좋아해", "싫어해", "살아요", "살고", "이사했어요",
    "on", "in", "at", "week", "before", "after", "weekend", "said", "last", "next", "ago", "yesterday", "today", "tomorrow", "tonight"}
_NOT_TOPIC = _NOT_TOPIC_WORDS | {relevance.stem(w) for w in _NOT_TOPIC_WORDS}  # content words are compared stemmed


def about_other_party(text: str) -> bool:
    """Whether ``text`` speaks of the other party ("your turtles", "you should", "네가")."""
    return bool(_OTHER_PARTY.search(text))


def _relation_fact(relation: str, name: str) -> FactCandidate:
    """One of their people by what they are to the visitor: family, or a friend or colleague by name."""
    key = f"family.{relation}.{name.replace('.', '')}" if relation not in {"friend", "best friend", "colleague", "coworker", "boss",
                                                          "roommate", "neighbor", "neighbour", "mentor", "teacher", "mate"} else f"people.{name.replace('.', '')}"
    return FactCandidate(key=normalise_key(key), value=name, statement=f"Their {relation} is called {name}")


# A neighbour named by where they live, opening a clause ("bev shepard next door brung over a whoopie
# pie", "Mavis next door's cat went missing"): one of their people, whose news is then theirs. Not
# whoever else lives there ("the lady next door", "me mum across the road") nor whoever went there.
_NEIGHBOUR_RE = re.compile(r"(?:^|(?<=[.!?,;:]\s)|(?<=\n)|(?<=\band\s)|(?<=\ban\s))((?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?[A-Za-z][a-z'-]{2,})(?:\s+([A-Za-z][a-z'-]{2,}))??"
                           r"(?=(?:['\u2019]s)?\s+(?:next\s+door|across\s+the\s+(?:road|street|hall|way|landing)|over\s+the\s+road)\b)")
_NOT_A_NEIGHBOUR = frozenset("lady guy man woman couple family people folks kid kids boy girl bloke fella feller gal dude lad lads chap "
                             "house place flat unit apartment one ones neighbour neighbours neighbor neighbors old new nice".split()) | frozenset(
    _RELATIONS.split("|"))


def _neighbours(text: str) -> list[FactCandidate]:
    out = []
    for m in _NEIGHBOUR_RE.finditer(text):
        words = [w for w in m.groups() if w]
        # (a name texted small is no word of speech nor a verb's form; a capitalised one, as a sentence opens
        # on one, no past nor -ing: "Popped next door", but "Mavis next door")
        if all((w.lower() not in _NOT_A_NAME and not re.search(r"(?:ed|ing|ly)$", w) if w[0].isupper() else _small_name(w))
               and w.lower() not in _NOT_A_NEIGHBOUR for w in words):
            out.append(_relation_fact("neighbour", words[0] if words[0][0].isupper() else words[0].capitalize()))
    return out


def _slot_people(text: str) -> list[FactCandidate]:
    out = _neighbours(text)
    for m in _RELATION_RE.finditer(text):
        relation, name = " ".join(m.group(1).lower().split()), m.group(2)
        if name in _PLACEHOLDER_NAMES:
            continue
        out.append(_relation_fact(relation, name))
    pets = []
    if not re.search(r"\b" + relevance.CAPITALISED + r"+\b(?<!\bI)", text[1:]):  # texted small, names too
        for m in _SMALL_RELATION_RE.finditer(text):
            relation, name = (m.group(1) or m.group(2), m.group(3)) if m.group(3) else (m.group(5), m.group(4))
            if not _small_name(name):
                continue
            if relation in _PETS.split("|"):
                pets.append((relation, name.capitalize()))
            else:
                out.append(_relation_fact(relation, name.capitalize()))
    pets += [(m.group(1), m.group(2)) for m in _PET_RE.finditer(text)]
    pets += [(m.group(2) or m.group(4), m.group(1) or m.group(3)) for m in _NAME_THEN_PET_RE.finditer(text)]
    for kind, name in pets:
        if name not in _PLACEHOLDER_NAMES:
            kind = kind.lower()
            out.append(FactCandidate(key=normalise_key(f"pet.{name}"), value=f"{kind} {name}", statement=f"Has a {kind} named {name}"))
    return out


def _slot_work(text: str) -> list[FactCandidate]:
    out = []
    m = _WORK_RE.search(text)
    if m and not _OTHER_PARTY.search(m.group(2)):
        what = m.group(2).strip()
        if m.group(1).lower() == "as":
            out.append(FactCandidate(key="work.role", value=what.casefold(), statement=f"Works as {_article(what)}"))
        else:
            out.append(FactCandidate(key="work.employer", value=what.casefold(), statement=f"Works at {what}"))
    m = _STUDY_RE.search(text)
    if m and not _OTHER_PARTY.search(m.group(1)) and m.group(1).split()[0].casefold() not in _NOT_OBJECTS:
        what = m.group(1).strip()
        out.append(FactCandidate(key="study.subject", value=what.casefold(), statement=f"Studies {what}"))
    m = _AGE_RE.search(text)
    if m and 3 <= int(m.group(1)) <= 120:
        out.append(FactCandidate(key="age", value=m.group(1), statement=f"Is {m.group(1)} years old"))
    return out


def _article(what: str) -> str:
    return what if what.split()[0].casefold() in {"a", "an", "the"} else ("an " if what[0].lower() in "aeiou" else "a ") + what


def _third_person(text: str) -> str:
    for pattern, repl in _THIRD_PERSON:
        text = pattern.sub(repl, text)
    return _capitalised(text)


def _capitalised(text: str) -> str:
    """``text`` with its first letter a capital, the rest as written."""
    return text[:1].upper() + text[1:]


_KO_ME_TOO = re.compile(r"(?:나도|저도)\s")
_KO_LAUGH = re.compile(r"(?<=[^\sㅋㅎ])\s*[ㅋㅎ]{2,}\s+")  # inside: laughter that opens a sentence is a reaction (_KO_REACTION)
# A question without its mark ("볼링 에버리지 몇임"): a question word, a casual ending.
_KO_ASKS_UNMARKED = re.compile(r"(?:몇|어디|언제|누구|왜|어떻게|무슨|뭐)[가-힣\s]*(?:임|냐|니|나|야|어|음)$")
# ... and anywhere, one whose ending can only ask: ~니, and 경상도's ~노, ~꼬 ("갸는 와 맨날 토하노",
# "어디로 갈라꼬"), after a question word that stands as a word, and ~냐 alone ("백구 잘있냐"), and
# wondering, ~려나 and ~ㄹ까 ("두부 멀미 안 하려나", "뭐 먹을까").
_KO_ASKS_PLAINLY = re.compile(r"(?:^|\s)(?:(?:와|머|몇|뭐)\s|어디|어데|언제|누구|누가|왜|어떻게|우째|우짜|우쨌|무슨|뭘)"
                              r"[가-힣\s]*(?:냐|니|노|꼬|인가)[.!~^ㅋㅎ\s]*$"  # (and 하게체's: "시술 날이 언제인가"; its ~는가 asks anywhere, below)
                              r"|(?<=[가-힣])(?<!잖)(?:냐|려나)[.!~^ㅋㅎ\s]*$"  # ~냐 asks alone (not ~잖냐, "you know"), ~려나 wonders
                              r"|(?<=[" + _FINAL_L + r"])까요?[.!~^ㅋㅎ\s]*$"  # and so does ~ㄹ까
                              r"|(?:^|\s)(?:어때|어땠어|어떰|어떠냐)요?[.!~^ㅋㅎ\s]*$"  # and "how is it" ("정관 집 어때")
                              # ... and 반말's ~니 after a past or a plain verb ("시험 잘 봤니", "일요일에도 하니",
                              # "말이니"), not 언니, 어머니, nor a cause (없으니, 하더니, "장보러 가야하니, 굿밤이에요")
                              r"|(?:(?<=[았었였했봤샀왔갔됐겠])|(?<=[\s가-힣])(?:(?<!야)(?<!야\s)하|허|되|지내|있|없|아니|이))니[.!~^ㅋㅎ\s]*$"
                              # ... and 경상도's ~나 after a past, 있 or 없 ("차는 나왔나", "밥 뭇나", "시간 있나")
                              r"|(?<=[" + fact_dates.KO_PAST_SYLLABLES + r"있없뭇])나[.!~^ㅋㅎ\s]*$"
                              # ... and 하게체's ~는가 ("잘 지내시는가~", "콩이 발은 다 나았는가"; not the rhetorical ~겠는가,
                              # which tells: "향교 일까지 맡아 놓고 어찌 몇 달을 비우겠는가", nor a name or a figure
                              # half remembered, ~인가, ~던가: "이름이 뭐라카더라 칼탄열풍인가", "8.6이라 하던가")
                              r"|(?<=[가-힣])(?<!겠)는가요?[.!~^ㅋㅎ\s]*$"
                              # ... and leave asked, ~도 되나 ("준서 씨 장판을 내가 받아도 되나")
                              r"|(?<=[가-힣]도)\s?되나요?[.!~^ㅋㅎ\s]*$")


def _heard_where_they_went(sentence: str) -> bool:
    """Whether Korean hearsay is what the visitor was told of their own ("내과 갔더니 역류성 식도염이래요",
    "결과 나왔는데 양성이래요"), of their family's, or by whom they rent from or work under ("건물주가 담달부터
    월세를 80만원으로 올린다 카네"): theirs, not someone else's news."""
    return bool(_KO_HEARSAY.search(sentence) and (_KO_KIN.search(sentence) or _KO_WENT_AND.search(sentence)
                                                  or _KO_OVER_THEM.search(sentence)))


# "and you were right": a clause about the listener joined to one of the visitor's by "and" or
# "but" ("I saw Dr. Okafor last Tuesday and you were right, she said ...") goes, and the visitor's stays.
# ... and so does a clause of theirs run on after "and" that turns to the listener's things ("got back
# tuesday and worked a 24 thursday and im still tired from your farm").
_AND_YOU = re.compile(r"\s+(?:and|but)\s+(?=(?:you|you're|you've|your)\s)"
                      r"|\s+(?:and|but|so)\s+(?=(?:i|im|i'm|ive|i've|we)\s[^.!?,;]*\b(?:you|your|u|ur)\b)"
                      # (and word sent after an emoji: "wake up 6 🤣 tell Greg come do nail with me")
                      r"|(?<=" + fact_dates.EMOJI + r")\ufe0f?\s+(?=(?:tell|say\s+(?:hi|hello|hiya))\s)", re.IGNORECASE)


# What the other party advised, inside a clause of the visitor's own ("I tried the recipe you
# suggested", "bought the book u recommended", "took your advice"): the clause tells what the visitor
# did, not something of the other party's.
_ADVISED = re.compile(r"(?<=\w\s)(?:you|u)\s+(?:had\s+)?(?:recommended|suggested|mentioned|sent me|gave me|showed me|told me(?:\s+(?:about|of))?(?!\s+so\b)|linked)\b"
                      # (or named as what they said, before the visitor's deed with it or after: "the Voltaren gel you said, I
                      # bought it", "we buy the Accu-Chek you say, in the Inkafarma")
                      r"|\b(?:the|that|this|those|these)\s+(?:[\w'-]+\s+){1,3}(?:you|u)\s+(?:said|say|told|tell)(?=\s*(?:,|$))"
                      r"|\b(?:took|followed|tried|used)\s+(?:your|ur)\s+(?:advice|suggestion|recommendation|tip|idea|plan)s?\b"
                      # (and what they tried of it, by its name: "we tried your Voffaból for Kópur", "I made your white bean chili")
                      r"|\b(?:tried|made|cooked|baked)\s+(?:your|ur)\b"
                      # (or by what they sent: "i made the khao piak sen from your youtube lady!!")
                      r"|\b(?:tried|made|cooked|baked)\s+(?:\S+\s+){1,5}?(?:from|off|with)\s+(?:your|ur)\b"
                      # (... as learners tell it, the verb bare: "Also I make your šaltibarščiai last week")
                      r"|\b(?:I|i|we|We)\s+(?:try|make|cook|bake)\s+(?:your|ur)\b"
                      # (and in Korean: "니가 깔아준 헤이딜러로 사진올렸더니", "니 말한 폭싹 속았수다 봤다")
                      r"|(?<![가-힣])(?:니가|네가|너가|니|당신이|자네가)\s*(?:말한|말했던|말해준|말해 준|알려준|알려 준|추천한|추천해준|추천해 준"
                      r"|깔아준|깔아 준|보내준|보내 준|보낸|사준|사 준|가르쳐준|일러준|일러 준|부탁한|권한)(?![가-힣])"
                      # (and what the visitor did on their word or thanks to them: "니 말 듣고 ISA 만들었다", "니 말대로 5%만 올림",
                      # in dialect too: "니 말대루 말랭이는 해봤슈")
                      r"|(?<![가-힣])(?:니|네|너|자네)\s*(?:(?:말|잔소리)(?:을|만)?\s*(?:대로|대루|듣고|따라)|덕(?:분)?에)(?![가-힣])",
                      re.IGNORECASE)
# ... and what the visitor gave or sent the other party ("sent you $300 for the exam period", "I gave
# you my old laptop"), or will pay them ("ill send you $200 tomorrow"): a deed of theirs, "you" only
# its receiver. (Not what a chat itself carries, "I sent you a pic", nor what anyone may do: "they'll
# give you a price".)
_FOR_THEM = re.compile(r"\b(?:(?:sent|gave|bought|paid|lent|transferred|posted|mailed|booked|ordered)\s+(?:you|u)\b"
                       r"(?=\s+(?:a|an|the|some|my|our|\$|£|€|\d))"
                       r"(?!\s+(?:(?:a|the|some|my)\s+)?(?:pics?|photos?|pictures?|selfies?|videos?|links?|messages?|texts?|screenshots?|emails?)\b)"
                       r"|(?:i['\u2019]?ll|i will|im gonna|i['\u2019]m going to)\s+(?:send|give|pay|lend|transfer)\s+(?:you|u)\b(?=\s+(?:\$|£|€|\d))"
                       # ... or where the visitor sent it ("I sent 400 dollars with Remitly to your account", "내일 니네 집으로
                       # 호박고구마 한 박스 부칠게")
                       r"|\b(?:to|into)\s+(?:your|ur)\s+(?:bank\s+)?(?:account|address|house|place|door)\b"
                       r"|(?<![가-힣])(?:니네|너네|너희|니|너)\s?(?:집|주소|회사|가게)\s?(?:으로|로)(?=\s))",
                       re.IGNORECASE)
# ... and in Korean, "your mother" or "your father" said to one's child: the visitor's spouse ("니 엄마가
# 벌써 커피믹스 통을 치워 버렸다", "네 엄마 허리가 영 신통치 않다"), of the visitor's home, not the listener's.
_YOUR_PARENT = re.compile(r"(?<![가-힣])(?:네|니|느|너네|너희|자네)\s*(?:엄마|아빠|어머니|아버지|어멍|아방"
                          r"|오마니|어무이|어무니|어머이|엄니|어매|아부지|아바지|아바이|아배)")  # (and in dialect: "니 오마니 대상포진이다")
# ... and in English, the family a parent shares with their child, or one sibling with another: "your
# mam chose t'colour", "your aunty Jean fell Thursdi", "your uncle Darnell called me yesterday" (not
# the listener's own partner, children or pets, who are theirs alone).
_YOUR_FAMILY = re.compile(r"\b(?:your|ur|yer)\s+(?:mam|mammy|mum|mummy|mom|mommy|mama|mother|ma|dad|daddy|da|papa|pa|father|aunty|auntie|aunt|uncle|nan|nana|nanna"
                          r"|gran|granny|grandma|grandad|granddad|grandpa|brother|sister)\b", re.IGNORECASE)
# ... and thanks the visitor passed to someone else ("I called her last night and told her thank you but no").
# (told, not passed on now: "Grandma say thank you baby" thanks the listener)
_THANKED_ANOTHER = re.compile(r"\b(?:told\s+(?:him|her|them|" + relevance.CAPITALISED + r"+)|said)\s+(?:no\s+)?thank\s+you\b", re.IGNORECASE)
# ... and "you" as anyone, what a medicine or a food does to whoever takes it ("it gives you the runs",
# "they make you drowsy", "that stuff knocks you out").
_ANYONE = re.compile(r"\b(?:it|that|they|which|these|those)\s+(?:gives?|gave|makes?|made|keeps?|kept|knocks?|knocked|wipes?|wiped)\s+(?:you|u)\b"
                     r"(?=\s+(?:the|a|an|out|up|awake|sleepy|drowsy|tired|hungry|dizzy|thirsty|sick|groggy|constipated|bloated)\b)", re.IGNORECASE)
# ... and 당신 said of an elder just named, as their own self ("이덕수 할아버지가 당신 돈으로 내시겠다고"), not "you"
_KO_ELDER_SELF = re.compile(r"(?:할아버지|할머니|어르신|아버님|어머님|아버지|어머니|시어머니|시아버지|[가-힣]님)(?:이|가|께서|은|는|도)\s+"
                            r"(?:[가-힣]+\s+){0,2}?당신(?=[가-힣]*\s)")
_NOT_ABOUT_THEM = (_ADVISED, _FOR_THEM, _YOUR_PARENT, _YOUR_FAMILY, _THANKED_ANOTHER, _ANYONE, _KO_ELDER_SELF)


def _without_mentions_of_theirs(part: str) -> str:
    """``part`` without the words that name the other party but say nothing of them (``_NOT_ABOUT_THEM``:
    what they advised, what the visitor did for them, the visitor's spouse as their parent)."""
    for pattern in _NOT_ABOUT_THEM:
        part = pattern.sub(" ", part)
    return part


# (... but loving it is a remark on the other party's thing: "I love the recipe you suggested")
_PRAISES = re.compile(r"\b(?:love|loved|loves|like|liked|likes|enjoy|enjoyed|adore|hate|hated)\b", re.IGNORECASE)


# An aside in brackets to the other party ("I sent it with a note (thank you for that tip).", "(you
# were right)") is no clause of the visitor's sentence around it.
_ASIDE_TO_THEM = re.compile(r"\s*\((?=[^()]*?" + _OTHER_PARTY.pattern + r")[^()]*\)", re.IGNORECASE)


# (and after a plan made as a promise: "토요일에 끌고 천안 갈게 니가 좀 봐줘")
_KO_PAST_END = re.compile(r"(?:(?<=[" + _PAST_SYLLABLES + r"]어)|(?<=[" + _FINAL_L + r"]게))\s+(?=[가-힣\d])")


# ... but a plan of theirs passed on through them is still the visitor's plan ("tell her we land saturday
# 11:40 at night", "tell tito i'm bringing the pernil seasoning"): the plan without its "tell"; not a
# feeling sent ("tell her I miss her", "tell him I'm proud of him", "tell him I'm making duas for him")
_RELAYED_PLAN = re.compile(r"^(?:(?:and|but|so)\s+)?(?:tell|let)\s+(?:him|her|them|[A-Za-z][\w'-]+)\s+(?:know\s+)?(?:that\s+)?"
                           r"(?!.*\bfor\s+(?:him|her|them)\b)(?=(?:i|i['\u2019]m|im|we|we['\u2019]re)\s+(?:(?!missing|thinking|praying|hoping|rooting|sending|loving)[a-z]{2,}ing"
                           r"|land|arrive|fly|leave|get\s+in|come)\b|(?:i['\u2019]ll|ill|we['\u2019]ll)\s+(?:be|bring|come|fly|land|arrive|get)\b)",
                           re.IGNORECASE)


def _before_them(part: str) -> list[str]:
    """The Korean sentences of ``part`` run together after pasts or promises (``_KO_PAST_END``), up to and with the
    first that names the other party (which the caller drops)."""
    pieces = _KO_PAST_END.split(part)
    return pieces[: next(i for i, p in enumerate(pieces) if _OTHER_PARTY.search(p)) + 1]


# A Korean "~거든요?" tells, with the voice raised, and asks nothing; so does a plain past raised as texting raises it
# ("나 어제 드디어 정형외과 갔다??": a question in 반말 ends in ~어?, ~냐 or ~니, not in ~다).
_KO_TOLD_RISING = re.compile(r"(거든요?|[" + fact_dates.KO_PAST_SYLLABLES + r"]다)\s*\?+[\s~^ㅋㅎㅠㅜ]*$")
# ... and "you know X?" brings X in, asking nothing ("언니 남자친구 민석 오빠 알지? 같은 항공사 사무장인")
_KO_YOU_KNOW = re.compile(r"(?<=[가-힣])\s+(?:알지|알죠|알잖아요?|아시죠|아시잖아요|기억나지|기억나죠|기억하지|기억하죠)\s*\?+[\s~^ㅋㅎㅠㅜ]*$")
# A past going on to what came of it ("불렀는데", "갔더니", "샀고"): a deed told.
_KO_DEED_GOES_ON = re.compile(f"[{_PAST_SYLLABLES}](?:는데|고|더니|어서|아서|서)\\s")
# ... nor does a guess at a figure after what they told ("생각보다 금방끝나더라 한 삼십분?"), where nothing asks one
_KO_ABOUT_RISING = re.compile(r"(?<=[가-힣]\s)((?:한|약|대충|대략|거의)\s*[\d일이삼사오육칠팔구십백천만]+\s*[가-힣]{0,2})\s*\?+[\s~^ㅋㅎㅠㅜ]*$")


# What one calls the listener, in place of their name ("sisi", "bro", "my dear", "kerida").
_TERM_OF_ADDRESS = re.compile(r"(?i:sisi|sis|sister|bro|bru|brother|cuz|coz|cousin|mate|dear|my\s+dear|darling|babe|hun|love|girl"
                              r"|my\s+(?:friend|brother|sister)|friend|auntie|aunty|jan|canım|habibi|habibti|chomi|bestie|kerida|binamé|motek)")
# ... nor one a phrase after it says who it is, between commas, before what they did ("Wilson, the neighbor of
# the 3rd floor, buy it for $3,900"): a few words opening on "the", with no verb of their own, or the name in
# full ("Johnny, Yohanna Oraha, young guy, 26").
_APPOSITIVE = re.compile(r"(?i:the)\s+(?!(?:\S+\s+){0,5}?(?i:is|are|was|were|has|have|had|did|does|do|got|gets|will|can|'s)\b)(?:\S+\s+){0,5}\S+"
                         r"|" + relevance.CAPITALISED + r"+(?:\s+" + relevance.CAPITALISED + r"+)+")


def _clauses_about_them(sentence: str, others: frozenset[str] = frozenset(), answering: bool = False,
                        asked_what: bool = False) -> str | None:
    """The sentence without its clauses about the other party and its questions; None when
    nothing about the visitor is left. ``others``: the names the other party just told news of
    (``_their_names``); a clause that opens on one ("Cian is so romantic") is about them.
    ``answering``: the sentence answers the other party's question about the visitor; ``asked_what``:
    one asking what, which or who (``_ASKS_WHAT``), which a word alone may answer."""
    if _ASKS_BY_ORDER.match(sentence.lstrip()):
        return None  # a question without its mark, the whole sentence ("does she need her own or does mine cover her")
    sentence = _PITY_THEN_NEWS.sub("", _ASIDE_TO_THEM.sub("", sentence))
    parts = [_RELAYED_PLAN.sub("", p, count=1) for c in _CLAUSE.split(sentence) for p in _AND_YOU.split(c)
             if p and not _opens_on(p, others) and not _SYMPATHY.match(p.lstrip()) and not _SIGN_OFF.fullmatch(p)]
    sides = _KO_LAUGH.split(sentence)  # (what comes before laughter inside it, and after)
    if (len(sides) > 1 and not sentence.rstrip().endswith("?")
            and (_KO_FIRST_PERSON.search(sentence) or answering or not _KO_REACTION.search(sentence)
                 # (or a deed done before the laughter: "보험사 긴급출동 불렀는데 기사님이 ... 많다고ㅋㅋㅋ 슬슬 보내줄 때 됐나봐";
                 # not before news they heard, which stays with it: "네 시간이나 찍었는데 한 5분 나온대요 ㅎㅎ 방송은 9월 중순이래요")
                 or (_KO_DEED_GOES_ON.search(sides[0]) and not _KO_HEARSAY.search(sides[-1]))
                 # (or news of theirs, then hearsay: "LG 12인용으로 주문해버렸어요 ㅋㅋㅋ 설치는 다음주 화요일이래요")
                 or (_KO_HEARSAY.search(sentence) and not _KO_REACTION.search(sides[0])))):
        # Laughter inside a Korean sentence of theirs joins a reaction to what follows ("뭉치 눈밭에서
        # 뛰었겠다 ㅋㅋ 나도 캣타워 샀어"): the reaction, a question or a request on either side goes. (A
        # sentence that ends as a reaction or a question stays whole, and is dropped whole: a side of it
        # alone is not theirs: "우와 제빵사 도현의 소금빵 ㅋㅋ 택배 돼?"; but an answer to their question
        # is theirs: "생일 다음 주 아님?" - "ㅇㅇ 다음 주 목요일 ㅋㅋ 기억하네".)
        # (What they were told where they went stays theirs: "결과 어제 나왔는데 양성이래요 ㅎㅎ 6개월 뒤에 ...")
        parts = [q for p in parts for q in _KO_LAUGH.split(p)
                 if q and not ((_KO_REACTION.search(q) and not _heard_where_they_went(q)) or _KO_ASKS_UNMARKED.search(q) or _REQUEST.search(q))]
        # ... and "me too" after it says what came before was of the other party's world ("두부 돼냥이 ㅋㅋ
        # 다이어트 사료 먹여 ㅋㅋ 나도 살 빼야 되는데"), unless it answers their question about the visitor.
        too = next((i for i, q in enumerate(parts) if i and _KO_ME_TOO.match(q)), None)
        if too is not None and not answering:
            parts = [q for i, q in enumerate(parts) if i >= too or _KO_FIRST_PERSON.search(q)]
    # ... unless what follows says who it is ("Kepler, my border collie, ...").
    # (A fragment is no address: "Acoustic, Thursday evenings" names what it is about; nor is the word that
    # answers what was asked: "What is she studying again?" - "Architecture, third year at Dokuz Eylül, she ...";
    # nor a name the listener's own title follows: "Also Sibusiso, sisi, they made him shift supervisor!!", where
    # the title goes)
    if len(parts) > 2 and _VOCATIVE.fullmatch(parts[0]) and _TERM_OF_ADDRESS.fullmatch(parts[1].strip()):
        parts = [parts[0], *parts[2:]]
    elif (len(parts) > 1 and _VOCATIVE.fullmatch(parts[0]) and not re.match(r"(?:my|our)\b", parts[1], re.IGNORECASE)
            and not asked_what
            and not (len(parts) > 2 and _APPOSITIVE.fullmatch(parts[1]))
            and not _fragment(sentence)):
        parts = parts[1:]
    # (a Korean sentence voice-typed without marks that turns to them after a past goes from there on; what
    # came before it stands: "배추 60포기 받기로 혔어 너랑 민호네 다 줄라믄", not "니가 와줘서 든든혔어 그 바쁜디 ...")
    # (not where "you" only advised it: "SM5는 지난주 목요일에 니가 말한 헤이딜러로 팔았어 230만 받았다")
    parts = [q for p in parts for q in (_before_them(p) if _OTHER_PARTY.search(_without_mentions_of_theirs(p)) else (p,))]
    # (a Korean "~거든요?" tells, with the voice raised, and asks nothing: "지난주 토요일에 야놀자로 6명 단체 예약이
    # 있었거든요?")
    parts = [_KO_YOU_KNOW.sub("", _KO_TOLD_RISING.sub(r"\1", p)) for p in parts]
    parts = [p if _KO_ASKS.search(p) or "얼마" in p else _KO_ABOUT_RISING.sub(r"\1", p) for p in parts]
    kept = [p for p in parts if not _OTHER_PARTY.search(p if _PRAISES.search(p) else _without_mentions_of_theirs(p))
            and not p.rstrip().endswith("?") and not _RELAY.match(p)
            and not (_KO_THANKS.search(p) and not _KO_DAY_GONE.search(p)) and not _KO_YOU_SAID.search(p)
            and not _KO_ASKS_PLAINLY.search(p) and not _HOW_ASKS.match(p)]
    if not kept or (len(parts) > 1 and kept == parts[:1] and _KO_BARE_WORD.fullmatch(kept[0].strip())):
        return None  # (or only the name the question or request after it was put to: "아리, 무엇부터 챙겨야 합니까?")
    text = ", ".join(kept).strip(" ,")
    return text if text and not text.endswith("?") else None


# The other party's question the message answers ("What inspired you?" -> "A sunset I saw in Busan"):
# only one about the visitor or someone they spoke of (you, your, she, nobody named) that names nothing
# of the asker's (I, my, we) nor anyone by name, and that does not ask what the visitor thinks of
# something (the asker's photos, the asker's son).
_ASKER_OWN = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|we're|we've|us|our|ours)\b|\bi(?:'m|'ve)\b", re.IGNORECASE)
_ASKS_OPINION = re.compile(r"\b(?:see|saw|seen|like(?![?!.\s]*$)|liked|love|loved|think|thought|hear|heard|enjoy|enjoyed|feel|felt|"
                           r"guess|remember|mind|want me|agree|make of)\b|\bhow (?:did|do) you find\b", re.IGNORECASE)
_QUESTION_START = re.compile(r"\b(?:what|which|how|where|when|who|why|did|do|does|are|were|is|was|have|has|had|will|would|"
                             r"can|could|any|got)\b", re.IGNORECASE)
_YOU_SUBJECT = re.compile(r"\b(did|do|does|are|were|have|has|had|will|would|can|could|should|what|how|where|when|why|"
                          r"which|who|and|if|that)\s+you\b", re.IGNORECASE)
# A question naming nobody ("Any news on the robotics team?", "How long did it take?", "What
# kind?") is put to the visitor: in a conversation of two, the asker would say "I" or "we" of their
# own things. One about "he" or "she" ("whats she studying?") asks of someone the visitor spoke of
# (nobody asks about their own); one naming someone by name is not put to them.
_TEXTING_YOU = re.compile(r"\b(?:u|ur)\b", re.IGNORECASE)
# Korean: a question put to them ("너", "네가") or naming nobody with a question word ("무슨
# 자전거?"); not one about the asker's own (나, 우리) nor one asking how they found something (어땠어).
_KO_YOU = re.compile(r"(?:^|\s)(?:너|너는|넌|너도|네가|니가|니|니는|니도|당신|형|형님|행님|언니|누나|오빠|선배|선배님)"
                     r"(?=\s|$|[?!.])")  # the listener, or the title they are called by ("행님 담배는 끊었나?")
_KO_ASKS = re.compile(r"무슨|어떤|뭐|뭘|무엇|어디|언제|누구|몇|왜|어떻게|우째|우찌|어째|어찌")  # (as Gyeongsang asks how: "MRI는 우째 나왔노?")
_KO_ASKER_OWN = re.compile(r"(?:^|\s)(?:나는|나도|내가|내|나|난|저는|저도|제가|저희|우리|우리는)(?=\s|$)")
# A topic alone asked after ("결혼 날짜는?", "회사는?": and your wedding's date?) asks for the visitor's.
_KO_TOPIC_ASKED = re.compile(r"(?:^|[.!?~ㅋㅎㅠㅜ]\s*)(?:[가-힣]+\s+){0,2}[가-힣]*[은는]\s*\?+$")
_KO_OPINION = re.compile(r"어땠|어때|어떠|어떨|좋았|재밌|재미있|괜찮|보더|보드")  # (and how they found someone: "우째 보더노?")
# A question after how someone or something of theirs is ("다이스케는 잘 지내요?", "민호는 요즘 어때?", "어깨는
# 괜찮아?"): not an opinion asked (unless it names the asker's own: _KO_ASKER_OWN), nor a suggestion ("산책은
# 어떠세요?" asks no "좀" or "요즘")
_KO_ASKS_AFTER = re.compile(r"(?:^|[\s.!?~ㅋㅎㅠㅜ])[가-힣]{2,4}?(?:이)?(?:\s?씨)?(?:는|은)\s+"
                            r"(?:(?:요즘|요새|좀|다들)\s+)?(?:잘\s*(?:지내|있|살|다니)|괜찮|건강)|(?:좀|요즘|요새)\s+(?:어때|어떠)"
                            # ... or whether they did it or have it, asked in 반말 without "you" ("상담은 다녀왔어?",
                            # "병원은 갔냐?", "헬멧은 있어?": its past syllables keep 있 and 겠, unlike KO_PAST_SYLLABLES)
                            # (not how they found it, their opinion: "제주도는 어땠어?")
                            r"|(?:^|[\s.!?~ㅋㅎㅠㅜ])[가-힣]{1,6}(?:은|는)\s+(?:[가-힣]+\s+)?(?!어땠|좋았|재밌|재미있|괜찮았)"
                            r"[가-힣]*[" + _PAST_SYLLABLES + r"](?:어|냐|니|나|노)\s*\?")
# A yes/no question whose verb honours its subject ("건강검진은 받으셨어요?", "여행 준비는 다 되셨어요?")
# asks after the listener or their elders (unless it names the asker's own: _KO_ASKER_OWN); the answer
# ("네, 지난주에 받으셨어요") says nothing without it.
_KO_HONOURS_LISTENER = re.compile(r"(?:셨|세요|세용|시나|시죠|시지|실래|시는|신가|시게|시고)")
_TO_THEM = [(re.compile(r"\byou're\b", re.I), "they're"), (re.compile(r"\byou've\b", re.I), "they've"),
            (re.compile(r"\byou'd\b", re.I), "they'd"), (re.compile(r"\byou'll\b", re.I), "they'll"),
            (re.compile(r"\byourself\b", re.I), "themselves"), (re.compile(r"\byours\b", re.I), "theirs"),
            (re.compile(r"\byour\b", re.I), "their"),
            # "you" doing something is "they" ("since you got back"); otherwise it is done to them
            (re.compile(r"\byou\b(?=\s+(?:got|went|came|left|met|saw|made|took|are|were|have|had|do|did|can|could|will|would|"
                        r"need|want|get|go|like|love|think|know|[a-z]{2,}ed)\b)", re.I), "they"),
            (re.compile(r"\byou\b", re.I), "them")]


# A question the other party texts without its mark, at the end of their message ("whats he like",
# "hows the ankle"; not "what a unit", nor "whats up").
_ASKS_UNMARKED_EN = re.compile(r"(?:(?i:and|so|ok|okay)\W+)?(?:(?i:what|what's|whats|where|when|who|which|how|hows|how's)\b)(?!\s+(?i:an?|up)\b)")


# The other party asking how something of the visitor's went, anywhere in their message, with its mark
# or without ("how was the doctor", "Dja!! how was it. the shoulder?", "how'd it go"; not "did you go to
# the therapy?", whose answer may go on to what is to come).
_HOW_IT_WENT = re.compile(r"\bhow(?:\s+(?:was|were|did)|['\u2019]?d)\b", re.IGNORECASE)


def _asked_how_it_went(previous: str) -> str | None:
    """The sentence of the other party's message that asks how something went (``_HOW_IT_WENT``), as a
    question; None when none does."""
    sentence = next((q.strip() for q in _SENTENCE.split(previous) if _HOW_IT_WENT.search(q)), None)
    return None if sentence is None or re.search(r"[가-힣]", sentence) else sentence.rstrip(" ?!.") + "?"


_ASKS_WHAT = re.compile(r"(?:what|which|who|where)\b(?!(?:['\u2019]?s|\s+is)\s+(?:new|up|good|wrong|happening|going\s+on|the\s+news)\b"
                        r"|\s+(?:happened|happens|now)\b)", re.IGNORECASE)  # (after "what happened?", a name opens the news)
_LEADING_EMOJI = re.compile(r"^(?:" + fact_dates.EMOJI + r"|\ufe0f|\s)+")


def _questions(previous: str | None) -> list[str]:
    """The sentences of the other party's message that ask something ("?", "?!", or a Korean
    question's ending, ``_KO_ASKS_PLAINLY``), in order, and the one it ends with when texted without
    its mark ("what's he like", "hows the ankle")."""
    sentences = [q.strip() for q in _SENTENCE.split(previous or "") if q.strip()]
    # (Korean asks by its ending as well as by the mark: "그래 뭐라드냐.", "니는 요새 어떠냐")
    asked = [q if q.rstrip("!").endswith("?") else q.rstrip(" .") + "?" for q in sentences
             if q.rstrip("!").endswith("?") or (re.search(r"[가-힣]", q) and _KO_ASKS_PLAINLY.search(q))]
    last = _LEADING_EMOJI.sub("", sentences[-1]) if sentences else ""  # ("🤣 ok what you watching then")
    if last and sentences[-1] not in asked and _ASKS_UNMARKED_EN.match(last):
        asked.append(last + "?")
    return asked


_KO_QUESTION_LEAD = re.compile(r"^(?:[ㅋㅎㅠㅜ]+\s*|(?:아|오|와|헐|근데|아니|그럼|그래서|그나저나)(?:\s+|,\s*))+")


_ASKS_WHICH = re.compile(r"(?:what|which)\s+(?:kind|type|sort|breed|colou?r|model|make|one)|where\b|when\b|"
                         # ("Who??", "who's she?" after "i had a date friday"; not "who are you?!", "who does that")
                         r"who(?:\s+(?:is|was)|['\u2019]?s)?(?:\s+(?:she|he|that|this))?\s*[?!.]*$|"
                         r"what(?:'s|s| is| are| was)\s+(?:he|she|they|it)\s+like\b|"
                         # (and as texted short: "What'd you get?")
                         r"what(?:\s+(?:did|will|have|had)|['\u2019](?:d|ll|ve))\s+you\s+(?:get|got|gotten|buy|bought|pick|picked|choose|chose|chosen|go for|gone for|end up with"
                         r"|ended up with|name|named|call|called)\b|"  # ("What have you got now?")
                         r"how (?:much|many|long|old|far|often)\b", re.IGNORECASE)


# The other party asking to be told, at the end of their message ("Tell me about Brett.", "Tell me
# more about your new job!").
_TELL_ME = re.compile(r"\b(?i:tell|talk)\s+(?i:me|us)\s+(?:(?i:a bit|a little|more|all|everything)\s+)?(?i:about)\s+"
                      r"([^.!?]{2,40}?)[.!]*$")


def _to_them(text: str) -> str:
    """``text`` with "you" and "your" in the third person (``_TO_THEM``)."""
    for pattern, repl in _TO_THEM:
        text = pattern.sub(repl, text)
    return text


def asked_of_them(previous: str | None, theirs: frozenset[str] = frozenset()) -> str | None:
    """The other party's question that ``previous`` ends with, when it asks about the visitor, in
    the third person ("What inspired you?" -> "what inspired them"); None otherwise (no question,
    small talk, one naming the asker's things or someone by name other than the visitor's people
    and pets, ``theirs``, one asking their opinion)."""
    if not previous:
        return None
    questions = _questions(previous)
    told = _TELL_ME.search(previous.strip())
    if told and not questions:  # "Tell me about Brett.": asked as well as a question would
        return f"about {_to_them(told.group(1))}"
    if not questions:
        return None
    question = _TEXTING_YOU.sub(lambda m: "your" if m.group(0).lower() == "ur" else "you", questions[-1])  # "what u up to?"
    if re.search(r"[가-힣]", question):
        predicate = question.rstrip("?!. ").rsplit(None, 1)[-1]  # (its last word: "어 이제 괜찮아 첫 출근 언제야?" asks no opinion)
        after = _KO_ASKS_AFTER.search(question) is not None
        if _KO_ASKER_OWN.search(question) or (_KO_OPINION.search(predicate) and not after) or not (
                _KO_YOU.search(question) or _KO_ASKS.search(question) or _KO_HONOURS_LISTENER.search(predicate)
                or _KO_TOPIC_ASKED.search(question) or after):
            return None
        # what it asks after the last laughter before it ("오빠 물놀이 좋아하잖아요 ㅋㅋ 서윤이는 ...?"), without
        # its lead ("ㅋㅋㅋ 아 근데 너 생일 다음주 아님?" -> "너 생일 다음주 아님")
        question = re.split(r"\s(?:[ㅋㅎㅠㅜ]{2,}|\^\^+|;;+)\s+", question)[-1]
        return _KO_QUESTION_LEAD.sub("", question).rstrip("?!. ")
    start = [m.start() for m in _QUESTION_START.finditer(question)]
    question = question[start[0]:] if start else question  # "Wow, Caroline, what inspired you?" -> "what inspired you?"
    question = _ASKS_POLITELY.sub("", question)  # ("What's the TA job, if you don't mind me asking?")
    question = re.sub(r"^(?i:and)\s+(?=" + relevance.UPPER + r")", "about ", question)  # ("And Jason?": asked about Jason)
    if (_ASKER_OWN.search(question) or _ASKS_OPINION.search(question) or _names_another(question, theirs)
            or _OTHER_PARTY.sub(" ", question).count(" ") > 20):
        return None
    content = [w for w in relevance.words(_OTHER_PARTY.sub(" ", question)) if w not in _NOT_TOPIC]
    if not content and not (_ASKS_WHICH.match(question) or _ASKS_HOW_IT_WENT.match(question)):
        return None  # "How are you?", "What about you?" (but "what kind?" asks about what they just told)
    text = _to_them(_YOU_SUBJECT.sub(lambda m: f"{m.group(1)} they", question.rstrip("?! .")))
    return text.lower() if text.isupper() else text[:1].lower() + text[1:]


# ... and "How did it go?" asks how what they just told went ("Surprise inspections are the worst. How
# did it go?"; not "How's it going?", a greeting), as "What did they say?" asks what came of it
# (the doctors, the school: "Maiwe. What are they going to do?")
_ASKS_HOW_IT_WENT = re.compile(r"how(?:\s+did|['\u2019]d)\s+(?:it|that|they|things|everything)\s+(?:go|turn\s+out|end\s+up)\b"
                               r"|how\s+(?:was|were)\s+(?:it|that|they)\s*[?!.]*$"
                               r"|what\s+(?:did|do|does|are|were|will|would)\s+(?:they|he|she)\s+(?:say|tell\s+you|find|think|suggest|recommend"
                               r"|(?:going\s+to|gonna)\s+do|do)\b", re.IGNORECASE)


_ASKS_POLITELY = re.compile(r",?\s*(?:if\s+(?:you\s+)?(?:don'?t|do\s+not)\s+mind\s+(?:me\s+|my\s+)?asking|if\s+I\s+may\s+ask)\b",
                            re.IGNORECASE)


def _names_another(question: str, theirs: frozenset[str]) -> bool:
    """Whether ``question`` names someone or something by name other than one of the visitor's
    people and pets (``theirs``, case folded: "How is Ana?", "Is Pepper still the grumpy one?" ask
    about their world) or a day or month ("Is she still baking every Sunday?"). Any other name is
    the other party's word, never made the visitor's: a place or a name may be the asker's own
    ("Still coming to Tacoma?"), what they suggest ("Have you looked at a Toyota Yaris?"), or
    simply wrong."""
    return any(m.group(0) not in CALENDAR_WORDS and re.sub(r"['\u2019]s$", "", m.group(0)).casefold() not in theirs  # ("How's Ethan's soccer?")
               and not _KIN_NAME.match(m.group(0))
               and not _KIND_OF_THING.match(question, m.start())  # ("How's Mam?": their mother, as "your mam" is)
               and not _THEIR_NAMED.search(question, 0, m.start())
               for m in _NAMED_THING.finditer(question))


# ... nor a name the question makes theirs ("How's your Corolla?", "Still at the same Boots?")
_THEIR_NAMED = re.compile(r"\b(?i:your|ur|the\s+same)\s+(?:" + relevance.UPPER + r"[\w'-]*\s+)*$")


# ... but an abbreviation naming a kind of thing is no name ("What's the TA job?", "How did your MRI go?").
# (... or after whose it is: "How did Mark's MRI go?")
_KIND_OF_THING = re.compile(r"(?:(?<=\bthe\s)|(?<=\byour\s)|(?<=\bur\s)|(?<=\ba\s)|(?<=\ban\s)|(?<=[a-z]'s\s)|(?<=[a-z]\u2019s\s))"
                            r"[A-Z]{2,4}s?\b(?!\s+[A-Z])")


def _promise(sentence: str) -> bool:
    """Whether a Korean sentence ends as a promise to the listener (~ㄹ게요: "꼭 보내 드릴게요", "먹을게",
    and as chat often spells it, "이만 할께요"; 하게체's ~주겠네): what the visitor will do for the other party in this
    conversation, not something of their life."""
    text = sentence.rstrip(" .!~^ㅋㅎ")
    if re.search(r"(?:주|드리)겠(?:네|소|습니다)$", text):
        return True  # (as 하게체 promises it: "축원을 올려 주겠네", "초 하나 켜 주겠네")
    stem = text[:-2] if text.endswith(("게요", "께요")) else text[:-1] if text.endswith(("게", "께")) else ""
    # (a final ㄹ before 게; not a pass, which turns a suggestion down: "석세션은 패스할게", nor a suggestion put off
    # after its topic, "미지의 서울은 나중에 볼게요", "저는 나중에 맞을게요"; "다음에 내려갈 때 빵 가져갈게" promises)
    return (bool(stem) and stem[-1] in _FINAL_L and not stem.endswith(("패스할", "패쓰할"))
            and not re.search(r"[가-힣][은는]\s+나중에\s", text))


# News of someone by name, opening the sentence on the name and its past ("Iain had it up on the ramp",
# "Raju the taxi driver from Namaka buy it"): in a message where the visitor tells of themselves (not
# only reacts: "That's the best thing I've ever heard. Juneau signed her work"), of someone of theirs,
# when the other party has not just named them (after the article German, French and Italian put before a
# name too: "The Engie has sent the annual bill").
_NAMED_NEWS = re.compile(r"(?:(?:and|but|so|oh|then|by\s+the\s+way|btw)\s+)?(?:(?i:the)\s+)?(" + relevance.CAPITALISED + r"+)(?:\s+" + relevance.CAPITALISED + r"+)?"
                         r"(?:\s+the\s+[a-z]+(?:\s+[a-z]+)?(?:\s+from\s+" + relevance.UPPER + r"\w+)?)?"
                         r"(?:\s+(?:he|she))?"  # (the name taken up again, as learners do: "Ilyas he find a job for the summer")
                         r"\s+(?:just\s+|finally\s+|also\s+)?"
                         r"(?:had|got|went|came|took|made|did|bought|sold|said|told|gave|fell|broke|won|lost|left|ran|saw|found|sent|paid|brought"
                         r"|caught|drove|flew|wrote|rang|buy|find|get|win|pass|finish|(?!need|feed|seed|bleed|speed|breed)[a-z]{2,}ed"
                         # (or has, as Ugandan and learners' English tell it: "by the way Lamunu has got a big order", "Anna has
                         # a kitten now!", "Susanna has also a new sewing machine")
                         r"|ha(?:s|ve)\s+(?:also\s+|just\s+|finally\s+)?(?:got|done|an?|another|new|sent|given|paid|sold|bought|found|made))\b")


_KO_COST_OPENS = re.compile(r"[\d,.]+\s?(?:십|백|천|만|억)*\s?원\s?(?:이|은|도|씩|정도|쯤)?\s?(?:들었|나왔|썼|줬|냈|주고|들어)")


# ... or cried out, as one tells news of one's own people ("and Catalina made the JV team!!")
_CRIED_OUT = re.compile(r"!!+\W*$")


def _named_news(sentence: str, others: frozenset[str], heard: frozenset[str]) -> bool:
    """Whether ``sentence`` opens on news of someone by name the other party did not just name (``_NAMED_NEWS``)."""
    m = _NAMED_NEWS.match(sentence)
    if m is None:
        return False
    name = m.group(1).casefold()
    return name in _names_in(m.group(1)) and name not in others and name not in heard and relevance.stem(m.group(1).lower()) not in heard


def _names_one_of(sentence: str, theirs: frozenset[str]) -> bool:
    """Whether the sentence is about one of ``theirs`` by name: it opens with the name, alone before a
    comma too ("Sibusiso, they made him shift supervisor"), or its news does, after a colon or a comma
    ("Big news: Pemberton woke up"); texted small too ("kylie and
    dean are moving", "kylies got the 2 kids", "james got the job")."""
    small = re.match(r"([a-z][a-z'-]+)\b", sentence)
    return (any(m.group(1).casefold() in theirs for m in _OPENING_NAME.finditer(sentence))
            or (small is not None and (small.group(1) in theirs or re.sub(r"'?s$", "", small.group(1)) in theirs)))


def _topic(words: list[str]) -> str:
    return "_".join(words[:3]) or "other"


# Dictated text (voice to text) runs on without a full stop: "period" and "comma" said aloud, and a
# new thread opening with "anyway", "oh and", or a question ("how is work for you"), are where its
# sentences end, so each is judged on its own. Only in a run of some length with no full stop.
_RUN_ON_WORDS = 15
_DICTATED_STOP = re.compile(r"\s+(?:period|full stop|new paragraph|new line)\s+(?=[a-z])", re.IGNORECASE)
_DICTATED_COMMA = re.compile(r"\s+comma\s+(?=[a-z])", re.IGNORECASE)
_NEW_THREAD = re.compile(r"\s+(?=(?:anyway|oh and|by the way|btw|speaking of which|are you|did you|have you|do you|"
                         r"what about you|how does|how do|whens|when's|when is|wheres|where's|whats|what's"
                         r"|have a (?:lovely|good|nice|great|fab|brilliant|safe))\b)", re.IGNORECASE)
_BEFORE_HOW = re.compile(r"\s+(?=" + _HOW + ")", re.IGNORECASE)  # in any run without a full stop


# ... after a reaction ("tam thats amazing send me pictures") ...
_AFTER_REACTION = re.compile(r"\b(?:thats|that's|that is)\s+(?:so\s+)?(?:amazing|brilliant|great|awesome|fantastic|incredible|"
                             r"wonderful|lovely|cool|mad|hilarious|gorgeous)\s+", re.IGNORECASE)
# ... and where "I" starts a clause of its own ("thats amazing send me pictures im driving so i cant
# look"), unless a word before it leads into it ("the best thing ive heard", "and i went") or a bare
# "i" ends a noun's phrase ("the rowing machine i use").
_I_FORMS = ("i", "im", "ive", "i'm", "i've")
_BEFORE_I = re.compile(r"\s+(?=(" + "|".join(_I_FORMS) + "|hell|shell|theyll|" + _TEXTED_PRONOUNS + r")\b)", re.IGNORECASE)
_LEADS_IN = frozenset("that which who what when where if because cos cause so and but or as how like thing things "
                      "something anything everything nothing until till before after since whether than while then".split())
# ... and into what someone else is said or thought to do ("i think hell survive", "the woman said hell grow")
_SAID = frozenset("think thought know knew said says hope guess reckon bet sure glad worried realised realized mean".split())
# An adverb before the subject opens its clause ("honestly i couldnt do nights"), unless a word leads into
# the adverb ("and obviously thats a no now").
_ADVERBS = frozenset("obviously apparently actually honestly basically probably maybe definitely literally clearly".split())
_DETERMINERS = frozenset("the a an this that these those my your his her our their every any some each".split())


# ... and where someone known by name starts one, the name followed by a verb ("im crying in the car
# park rafe did good", "her name on callum starts at kirkstall grange"): the listener's people and
# the visitor's, whose clauses are judged apart (``_opens_on``, ``_names_one_of``).
_ACTS = (r"(?:is|was|did|does|has|had|must|will|would|can|could|should|might|isnt|wasnt|didnt|doesnt|cant|wont|"
         r"hasnt|went|got|said|[a-z]{2,}(?:ed|s))\b")
# Pity or envy at someone's news ("aw poor arlo but try not to worry", "Lucky you!", "poor thing"):
# a reaction, whoever it names, unless the one named goes on to do something ("poor Max has been
# off his food all week" is news).
# (Not luck in a day of their own: "lucky yesterday i put the winter tires".)
_SYMPATHY = re.compile(r"(?i:(?:aw+|oh(?:\s+no)?|ah|ay+|ai+|oy)[\s,!]+)?(?i:poor|lucky)\s+(?!(?i:yesterday|today|tonight|last|this|i|we)\b)[A-Za-z]+\b(?!'s|\s+" + _ACTS + ")")
# ... and one an emoji ends, before news of the one pitied ("poor Topik 😢 two days ago he had the teeth
# surgery"): the pity goes, the news stays to be judged as any other.
_PITY_THEN_NEWS = re.compile(r"^\s*" + _SYMPATHY.pattern + r"\s*(?:" + fact_dates.EMOJI + r"\ufe0f?\s*)+(?=\w)")


# ... and where anyone starts one with a modal ("i need videos rafe must be so proud"): the word
# before the modal is its subject, unless it is a word of a phrase (after "the", "to", "of"...).
_BEFORE_MODAL = re.compile(r"\s+(?=([A-Za-z]+)\s+(?:must|should|might|will|would|could|can|cant|wont|shall)\b)")
_NOT_SUBJECTS = _LEADS_IN | _DETERMINERS | frozenset("to of in on at for with about from into by i im ive".split())


def _texted_clauses(line: str, names: frozenset[str] = frozenset()) -> str:
    """``line`` with a line break before each "I" or known name (``names``, case folded) that
    starts a clause of its own."""
    out, start = [], 0
    subjects = [*_BEFORE_I.finditer(line), *(m for m in _BEFORE_MODAL.finditer(line) if m.group(1).casefold() not in _NOT_SUBJECTS)]
    if names:
        named = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        subjects += re.finditer(rf"\s+(?=({named})\s+{_ACTS})", line, re.IGNORECASE)
    for m in sorted(subjects, key=lambda m: m.start()):
        at = m.start()
        words = line[:at].casefold().split()
        if words and words[-1] in _ADVERBS:  # the adverb opens the clause with its subject
            at, words = line.rstrip().rfind(" ", 0, at), words[:-1]
        if at <= start or _within_clause(m, words):
            continue
        out.append(line[start:at])
        start = m.end() if at == m.start() else at + 1
    return "\n".join([*out, line[start:]])


def _within_clause(subject: re.Match[str], words: list[str]) -> bool:
    """Whether a ``subject`` found by ``_texted_clauses`` goes on the clause before it (``words``,
    case folded): a word leads into it ("and i went"), a bare "i" ends a noun's phrase ("the rowing
    machine i use"), it is what was said, told or thought ("told me theyre bored", "i think hell
    survive"), or the word before a modal is part of a phrase ("the kids will")."""
    said = subject.group(1).casefold()
    return (not words or words[-1] in _LEADS_IN
            or (said == "i" and bool(_DETERMINERS & set(words[-3:-1])))
            or (words[-1] in ("me", "us", "him", "her", "them") and words[-2:-1] in (["told"], ["tell"], ["asked"]))
            or (said not in _I_FORMS and words[-1] in _SAID)
            or (subject.re is _BEFORE_MODAL and (words[-1] in _NOT_SUBJECTS or words[-2:-1] in (["but"], ["and"], ["so"], ["because"], ["cos"]))))


def _dictated(text: str, names: frozenset[str] = frozenset()) -> str:
    """``text`` with the sentence ends a dictated or texted run-on leaves unsaid, one per line
    (``names``: people known by name, case folded, for ``_texted_clauses``)."""
    out = []
    for line in text.split("\n"):
        if not re.search(r"[.!?。]\s", line):
            line = _BEFORE_HOW.sub("\n", line)
            if len(line.split()) >= _RUN_ON_WORDS:
                line = _NEW_THREAD.sub("\n", _DICTATED_COMMA.sub(", ", _DICTATED_STOP.sub("\n", line)))
                if not re.search(r"[,;:.!?\u2013\u2014]\s|\s-\s", line):  # texted: not a mark in it
                    line = _AFTER_REACTION.sub(lambda m: m.group(0).rstrip() + "\n", line)
                    line = _texted_clauses(line, names)
        out.append(line)
    return "\n".join(out)


# Korean words of one syllable that say nothing of their own (a Korean noun of one, "차", "집", "약", does)
_KO_SMALL_WORDS = frozenset("좀 또 더 잘 꼭 다 막 왜 뭐 뭘 난 넌 나 너 저 제 내 네 그 이 것 거 게 걸 건 수 때 안 못 참 꽤 늘 곧 걍 "
                            "응 예 음 아 어 오 와 헐 휴 쫌 딱 확 쭉 푹 싹 중 등 번 명 분 시 일 월 년 원 살 대 쯤 뿐 만 날 듯 "
                            "해 돼 됐 한 할 될 된 간 갈 온 올 본 볼 줄 줘 준 잠 양 채 "
                            "함 됨 임 봄 옴 감 줌 삼 씀 둠".split())  # (and 음슴체's verbs: "시험 봄", "집에 옴")


def _content(sentence: str) -> list[str]:
    """A sentence's content words (stemmed), its dates left out: not a letter alone, but a Korean noun
    of one syllable, standing as a word, is one ("어제 차 샀어"; not the 모 of "6모")."""
    plain = _DATES.sub(" ", sentence)
    alone = set(re.findall(r"(?<!\w)[가-힣](?!\w)", plain)) - _KO_SMALL_WORDS
    return [t for t in relevance.words(plain) if t not in _NOT_TOPIC and (len(t) > 1 or t.isdigit() or t in alone)]


def _echoes(sentence: str, heard: frozenset[str]) -> bool:
    """Whether a sentence mostly repeats what the other party just said ("Teaching bell-ringing at
    York Minster!" after "I've been asked to teach a bell-ringing course at the Minster"): a
    reaction to their news, not news of the visitor's own: two of its content words in three."""
    content = set(_content(sentence))
    return len(content) >= 2 and 3 * len(content & heard) >= 2 * len(content)


def _their_names(previous: str | None, text: str) -> frozenset[str]:
    """The names (case folded) the other party just told news of ("Cian proposed on the pier!",
    "Biscuit howls along"): capitalised words of their statements, not their questions, that one
    of the two messages also capitalises inside a sentence (a name, not a sentence's first word:
    "Art's awesome" names no one) and that are no day or month; not one sent love or greetings ("haha
    love Mere", "hugs to Ana", "tell Salote hi"): one of the visitor's, as one asked after is."""
    inside = {m.group(1) for t in (previous or "", text) for m in re.finditer(r"(?<=[^\s.!?]\s)(" + relevance.CAPITALISED + r"+)\b", t)}
    return frozenset(m.group(1).casefold() for s in _SENTENCE.split(previous or "")
                     if not s.rstrip().endswith("?") and not _ASKS_BY_ORDER.match(s.lstrip())
                     for m in re.finditer(r"\b(" + relevance.CAPITALISED + r"+)\b", s)
                     if m.group(1) in inside and m.group(1) not in _PLACEHOLDER_NAMES and m.group(1) not in CALENDAR_WORDS
                     and not _SENT_LOVE.search(s, 0, m.start()))


# Love or greetings sent to someone by name, right before the name ("love Mere", "hugs to Ana", "tell Salote").
_SENT_LOVE = re.compile(r"\b(?:love|hugs?|kisses|cuddles|miss|hi|hello|greetings|regards|tell|kiss)\s+(?:(?:to|for)\s+)?$", re.IGNORECASE)


def _names_in(text: str) -> set[str]:
    """The names (case folded) ``text`` writes: capitalised words, not all capitals (CDC), a day, a
    month, I or a word that opens sentences ("Well", "The")."""
    return {w.casefold() for w in re.findall(r"\b" + relevance.CAPITALISED + r"+\b", text)
            if w not in CALENDAR_WORDS and w not in _PLACEHOLDER_NAMES and w.casefold() not in _NOT_NAMES
            and w.lower() not in relevance.STOP_WORDS}


# A word texted small opening a sentence or clause, before what it did or is ("abdullahi is at the U",
# "nasra has a game friday"): a name, when it is no word of speech (``_small_name``).
_SMALL_SUBJECT = re.compile(r"(?:^|(?<=[.!?,]\s)|(?<=\n))([a-z]{3,12})(?:['\u2019]s)?\s+(?=(?:is|was|has|had|got|gets|starts|started|plays|played"
                            r"|made|makes|won|lost|passed|failed|finished|says|said|went|goes|wants|loves|turned|turns)\b)")


def _small_subjects(text: str) -> set[str]:
    """The names texted small that open a sentence or clause of ``text`` (``_SMALL_SUBJECT``)."""
    return {m.group(1) for m in _SMALL_SUBJECT.finditer(text) if _small_name(m.group(1))}


def _opens_on(clause: str, names: frozenset[str]) -> bool:
    """Whether ``clause`` opens on one of ``names`` ("Cian's band is good", "poor Biscuit", "I love
    Biscuit walks")."""
    first = re.match(r"(?i:(?:and|but|so|oh|poor|lucky)\s+|I\s+(?:really\s+|just\s+)?(?:love|adore|miss)\s+)?(" + relevance.LETTER + relevance.LOWER + r"+)\b",
                     clause.lstrip())  # (texting writes the name small: "siobhan sounds like...")
    return first is not None and first.group(1).casefold() in names


def _their_news(previous: str | None) -> frozenset[str]:
    """The content words of what the other party just told of their own in Korean: a statement of
    theirs that says "I", "my" or "our" ("나도 이번 주에 콩이 중성화 수술 시켰어"), not a question,
    not a remark about the visitor's things ("심사만 통과하면 이제 석사네요") and not what they would
    like ("부럽다 ㅠㅠ 나도 망고 먹고 싶어": the visitor's mango stays the visitor's)."""
    news: set[str] = set()
    telling = False  # (what follows a sentence that says "I" goes on with it, its subject dropped:
    for s in _SENTENCE.split(previous or ""):  # "아 나 다음달에 이사해!! 신림 원룸 계약 끝나서 망원동으로 감")
        telling = telling or bool(_KO_FIRST_PERSON.search(s) or _KO_DONE_BY_SOMEONE.search(s))
        if telling and not s.rstrip(" ~^ㅋㅎㅠ").endswith("?") and not _KO_WANTS.search(s):
            news.update(_content(s))
    return frozenset(news)


_KO_WANTS = re.compile(r"고\s*싶[다어네었]")
# ... or what someone of theirs did, told opening on them ("요나스가 프리다 전용 경사로 만들어줬어"): a past,
# not a guess at the visitor's ("준이가 벌써 학교 가겠네")
_KO_DONE_BY_SOMEONE = re.compile(r"^\s*[가-힣]{2,4}(?:가|이가)\s[^?]*[" + fact_dates.KO_PAST_SYLLABLES + r"](?:어|다|음|요|대)[.!~^ㅋㅎㅠ\s]*$")


# What the other party puts to the visitor to try ("Forest 앱으로 관리해보시는 건 어때요?", "Red Rocks(레드락스)에
# 가보시는 것도 추천해요", "Zotero를 쓰면 편해요").
_KO_SUGGESTS = re.compile(r"추천|어때|어떨까|어떠세요|보세요|보시는|보시면|보는\s*(?:건|것도|게)|해\s*봐|써\s*봐|가\s*봐"
                          r"|(?:시면|쓰면|하면)\s*(?:좋|편|도움)")


def _suggested(previous: str | None) -> frozenset[str]:
    """The names in what the other party just suggested to the visitor in Korean (``_KO_SUGGESTS``):
    an app, a product or a place written in Latin letters, or glossed in Hangul beside them ("Red
    Rocks(레드락스)"). A sentence of the visitor's that opens on one ("Forest는 랩 후배가 쓰는 거 봤는데
    저는 ... 스트레스 받을 것 같아요", "레드락스 멋있어 보이긴 하는데 차도 없고") weighs their suggestion,
    even where it says "I". (Not their every word: "수영이 좋을 것 같아요" takes up what was suggested,
    and "계단 걷기는 좀… 사실 허리를 삐끗했어요" goes on to news.)"""
    return frozenset(w for s in _SENTENCE.split(previous or "") if _KO_SUGGESTS.search(s)
                     for w in _content(" ".join(re.findall(r"[A-Za-z][\w'-]*|(?<=[A-Za-z]\()[가-힣]+(?=\))", s))))


def _ko_their_topic(sentence: str, news: frozenset[str], theirs: frozenset[str], span: int = 2) -> bool:
    """Whether a Korean sentence that does not say "I" opens (in its first two words) on what the
    other party just told of their own (``_their_news``): "콩이 밥 쫌 줄이라" after "나도 이번 주에 콩이 중성화 수술 시켰어",
    "클라이밍 시작한 지 얼마 안 됐는데 벌써 그렇게 늘었으니" after "저는 어제 클라이밍에서 처음으로
    완등했어요". Advice or praise about their world, not news of the visitor's (a word with its
    particle, 클라이밍에서, is the same word; one of the visitor's own people by name is theirs)."""
    return any(w.casefold() not in theirs and not _KO_WHEN_WORD.match(w)
               and any(h == w or (min(len(h), len(w)) >= 2 and (h.startswith(w) or w.startswith(h))) for h in news)
               for w in _content(sentence)[:span])


# When something was, which both may say of their own news ("나 어제 승진했어" - "준서 어제 반장 됐어"): no topic.
_KO_WHEN_WORD = re.compile(r"(?:어제|오늘|내일|모레|그제|그저께|엊그제|아까|방금|요즘|요새|이번|지난|다음|담주|담달|저번|올해|작년|내년|주말|아침|저녁|새벽)")


# An amount of money, or a count of something weighed, sold or paid by ("$2.40 a pound", "4800 bucks
# a unit", "900 pounds", "£1,275"), or a measure taken ("165 over 100", "7lb 9oz", "3.2 kg"): told
# plainly, news of the visitor's own world.
_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_WORD_FIGURE = re.compile(r"\b(" + "|".join(_COUNTS) + r")\s+(hundred|thousand)\b", re.IGNORECASE)
# (the world's money too: "K38,500" kwacha, "R52 000" rand, "N450,000" naira, "KSh 2,000", "₱15,000", "40,000 cedis")
_CURRENCY = r"kwacha|naira|cedis?|shillings?|pesos?|ringgit|baht|yen|dirhams?|riyals?|taka|rupiah|rand|rupees"
_AMOUNT = re.compile(r"[$£€₹¥₩₦₱₵₫฿₺₽₪৳]\s?\d|\b(?:salary|wages?|rent|pay|payment|mortgage|deposit)\s+(?:is\s+|was\s+|now\s+|of\s+|will\s+be\s+)*(?:\d{1,3}(?:,\d{3})+|\d{3,}\b)|\b(?-i:K|R|N|P|Q|Rs\.?|RM|Rp|KSh|Ksh|TSh|USh|UGX|KES|NGN|ZAR|ZMW|PHP|GHS|GH₵|MK|Tk)\s?"
                     r"(?:\d{1,3}(?:[, ]\d{3})+|\d{3,})(?![\w])|" + _WORD_FIGURE.pattern
                     + r"(?:\s+and\s+[a-z]+)?\s+(?:quid|pounds?|dollars|bucks|euros?|" + _CURRENCY + r")\b|\d[\d,.]*\s*(?:k\b|bucks|dollars|quid|grand|pounds?|euros?|" + _CURRENCY + r"|%|percent"
                     r"|(?:a|an|per)\s+(?:pound|unit|month|week|year|hour|night|day|head|kilo|piece)|salary"
                     r"|(?:kg|kgs|kilos?|lbs?|oz|stone|km|miles|cm|mm|litres?|liters?)\b)|\b\d{2,3}\s*(?:over|/)\s*\d{2,3}\b",
                     re.IGNORECASE)


# ... and a short sentence of a message that says I, opening on what it tells the amount of ("payment's
# $312 a month for 48 months"), not on what points at the other party's ("that's $50 for a t-shirt"),
# nor of what they just named ("Get a dough divider" - "a dough divider is like 3 grand")
_SHORT_AMOUNT = re.compile(r"(?!(?:that|this|it|those|these|thats|its)\b)(?:\S+\s+){0,11}\S+$", re.IGNORECASE)


def _figures(sentence: str) -> list[list[str]]:
    """The figures ``sentence`` names, in digits or in words ("nine hundred dollars": 900), each as
    the runs of digits it is written in ("$7,200": 7 and 200, one figure, not a 7 of its own)."""
    return [*(re.findall(r"\d+", f) for f in re.findall(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+", sentence)),
            *([str(_COUNTS[m[1].lower()] * (100 if m[2].lower() == "hundred" else 1000))] for m in _WORD_FIGURE.finditer(sentence))]


# ... but not one weighed against another, or put to the listener to buy ("Better than Couch to 5K
# anyhow", "Iphones are a rip off nan, get a samsung a series, like $400")
_WEIGHS = re.compile(r"^(?:\w+\s+)?(?:better|worse|cheaper|dearer|pricier)\s+than\b"
                     r"|(?:^|,\s*)(?:get|buy|try|go for|use|grab|check out)\s+(?:a|an|the|some|one)\b", re.IGNORECASE)


def _plain_news(text: str, called: Collection[str]) -> bool:
    """Whether an English message tells news without saying whose: neither "I" nor "you", no
    question, and not the name they call the other party ("Achan's TMT came positive. Angiogram
    done day before yesterday", "Registration got shifted. From 3rd to 8th April"; "your mam" is
    theirs too, ``_YOUR_FAMILY``). Texted news drops its subject as Korean does; a message like that
    tells of the visitor's world."""
    return not re.search(r"[가-힣]", text) and not _FIRST_PERSON.search(text) and not _asks_or_names_them(text, called)


def _asks_or_names_them(text: str, called: Collection[str]) -> bool:
    """Whether ``text`` asks something, or names the other party: "you" (not the family a parent
    shares with their child, ``_YOUR_FAMILY``) or a name they call them by (``called``)."""
    return ("?" in text or bool(_OTHER_PARTY.search(_YOUR_FAMILY.sub(" ", text)))
            or any(re.search(rf"\b{re.escape(n)}\b", text, re.IGNORECASE) for n in called))


# A sentence about someone else ("she's 92 now", "Wambui closes on 5/12 so she'll be home") or told to
# the other party ("Doh stay by Mannie's Bar till 2"): no figure of theirs.
_SOMEONE_ELSE = re.compile(r"\b(?:he|she|they|his|her|their|him|them)\b|^(?:don['\u2019]?t|doh|do not|never|please|make sure)\b",
                           re.IGNORECASE)


# What the other party said of no one: no person, no name past its first word, nothing of their own, no
# question and no news of theirs in the past ("Solid success rate for a 5-year-old party."; not "Biscuit
# ate a whole sock"): past news the visitor then tells of "she" or "he" is of their own world, as it is
# when they open the conversation.
_SOMEONE = re.compile(r"\b(?:i|my|mine|we|our|ours|us|me|he|she|his|her|him|hers|they|their|them"  # (and i'm, he's... with them)
                      r"|same\s+here|here\s+too)\b"  # ("lol same here": the other party's own)
                      r"|(?<=\S\s)(?-i:" + relevance.CAPITALISED + r")|\?|[가-힣]", re.IGNORECASE)


def _of_no_one(previous: str) -> bool:
    return not _SOMEONE.search(previous.replace("\n", ". ")) and not fact_dates.tells_a_past(previous)


_A_PAST = "it was"  # (a past for ``fact_dates.resolve`` to read a sentence's tense from)
# A learner's bare verb of a deed after one person or thing that did it ("Manny install it on Tuesday", "on wednesday
# she jump on the table", "Ram transmission die on thursday"): the missing -s shows a learner, who tells the past so;
# its tense is the message's; so does a thing's, one that has no -s to lose ("On Monday a taxi hit me from behind ...
# I was stopped at the robot"). (Not "I" or "we":
# "we drive to Leeds on Sunday" is a plan as natives say it; nor what is had, wanted or started.)
_BARE_DEED_VERB = (r"(?:^|(?<=[.,!?;:]\s)|(?<=day\s)|(?<=morning\s)|(?<=afternoon\s)|(?<=evening\s)|(?<=night\s))(?:he|she|it|" + relevance.CAPITALISED + r"{2,}(?:\s+[a-z]{4,}(?<![se]s)(?<!ing)(?<!ed))?"
                   r"|(?:a|an|the|my|our|his|her)\s+[a-z]{3,}(?<!s)(?<!ing))\s+(?:just\s+|finally\s+)?"
                   r"(?!(?:have|need|want|can|will|would|should|must|may|might|gonna|wanna|got|is|was|do|did|go|come|start|begin"
                   r"|finish|work|think|hope|know|like|love|see|feel|stay|leave|fly|move|get|pick|visit"
                   r"|for|and|but|the|to|in|on|at|with|from|of|by|about|after|before|too|also|then|again|now|here|there|not|never)\b)"
                   r"[a-z]{3,}(?<!ing)(?<!ed)(?<!s)\b(?=\s+(?:it|him|her|them|me|us|the|a|an|my|his|our|their|on|in|up|out|half|\d))")
_BARE_DEED = re.compile(_BARE_DEED_VERB + r"(?=[^.!?\n]*" + _WEEKDAY + ")|" + _WEEKDAY + r"[^.!?\n]*?" + _BARE_DEED_VERB, re.MULTILINE)
# ... and what shows a learner who tells the past so, after it: "he" or "she" and a verb without its -s ("on thursday
# i go for new blood test to doctor Vujović. he look papers and he smile", "... Nigina first say no, then she give him
# milk"): what they tell of the day is its outcome. (Not a name: "Brigid after Granny", "Dwight one of them".)
_LEARNER_DEED = re.compile(r"\b(?:[Hh]e|[Ss]he)\s+(?:first\s+|then\s+|just\s+|finally\s+)?"
                           r"(?!(?:is|was|has|does|did|will|would|can|could|should|must|may|might|had|just|also|still|never|always|only|even"
                           r"|really|already|finally|then|too|not|and|or|but|so|doesn|didn|isn|wasn|won|said|told|got|went|came|made|took"
                           r"|the|for|from|with|who|which|that|this|here|there|now|today|tomorrow|after|before|all|both|one|out|off"
                           r"|very|much|more|less|back|home|away|again|ever|almost|maybe|probably|definitely|actually|usually|often"
                           # (nor a state, which tells no deed of the day: "he know my work but he like to make ya sweat")
                           r"|know|like|love|want|need|think|feel|hope|believe|understand|mean|live|remember|forget|prefer|hate|wish|seem)\b)"
                           r"[a-z]{3,}(?<!s)(?<!ed)(?<!ing)\b(?!['\u2019])")

# (a day or a deed to come, after which what a learner tells is no outcome of the day before it)
_A_DAY_AHEAD = re.compile(r"\b(?:tomorrow|tmrw|tonight|next\s+(?:week|month|year|time)|will|gonna|going\s+to)\b|['\u2019]ll\b", re.IGNORECASE)


def _learner_after(sentences: list[str]) -> bool:
    """Whether what follows a day tells its outcome in a learner's bare deeds (``_LEARNER_DEED``), before a day or a
    deed to come ("so tomorrow all day we clean. Totò already is nervous, he polish the hood": the day is ahead)."""
    for s in sentences:
        if _A_DAY_AHEAD.search(s):
            return False
        if _LEARNER_DEED.search(s):
            return True
    return False


# ... and a verb with its -s after one person tells the present ("Tashni goes back to school on Wednesday")
_THIRD_PRESENT = re.compile(r"\b(?:[Hh]e|[Ss]he|" + relevance.CAPITALISED + r"+)\s+[a-z]+[^s\W]s\b")


def _told(text: str, said_at: datetime | None, covered: set[str], asked: str | None = None,
          theirs: frozenset[str] = frozenset(), heard: frozenset[str] = frozenset(),
          news: frozenset[str] = frozenset(), others: frozenset[str] = frozenset(),
          suggested: frozenset[str] = frozenset(), plain: Collection[str] = (), unprompted: bool = False,
          went: str | None = None) -> list[FactCandidate]:
    """What the visitor tells about themselves, a sentence at a time (not one whose words a slot
    fact already holds: ``covered``). A sentence that goes on about what they just said ("It was
    so powerful.", "She gave it to me when I was young.") joins it; so does one that completes a
    sentence too thin to keep alone ("I went to the zoo. It was packed."). A question or a clause
    about the other party breaks the thread. ``asked``: the question about them the message answers
    (``asked_of_them``); their first sentence answers it, so it is theirs without saying "I", and
    the fact it makes says what it answers ("Asked what inspired them: A sunset in Busan").
    ``theirs``: the names of their people and pets (case folded); news of one is part of their
    world ("Pemberton woke up yesterday!"). ``heard``: the content words of what the other party
    just said; an English sentence without "I" that mostly repeats them echoes their news
    (``_echoes``), unless it answers their question. ``news``: the words of what they just told of
    their own in Korean (``_their_news``); a sentence without "I" that opens on one of them is about
    their world (``_ko_their_topic``), unless it answers their question. ``others``: whom they just
    told news of by name (``_their_names``); a clause that opens on one is about them.
    ``suggested``: the words of what they just suggested in Korean (``_suggested``); a sentence that
    opens on one weighs it, unless it answers their question. ``plain``: the lines of the message
    (each a message of its own, sent in a burst) that tell news without saying whose
    (``_plain_news``): a sentence of one that names its time, or an amount, and goes on from
    nothing before it is news of theirs ("white shrimp running good. 16-20s at $2.40 a pound at the
    dock", "gonna be $2,300 for the wheel and the haul out"). ``unprompted``: the message opens the
    conversation, after nothing the other party said (or nothing of anyone, ``_of_no_one``), and neither asks nor names them; the news it
    opens on, in the past, is theirs, there being nothing of the other party's to answer ("yo. MRI
    came back"). ``went``: the other party's question of how something went (``_asked_how_it_went``); the
    first day they name, in a sentence that has no tense of its own, is gone ("mano how was the doctor" - "i go
    on wednesday finally", as learners tell the past)."""
    out: list[FactCandidate] = []
    last: int | None = None  # the fact the previous sentence made or joined: a following one may continue it
    # a sentence of theirs too thin alone, that one may complete: statement, content words, day, and
    # whether it answers the other party's question
    held: tuple[str, list[str], str | None, bool] | None = None

    def release() -> None:
        """A thin answer nothing completed is kept all the same when it has two words of its own: the
        question says the rest ("And the kids?" - "Ruan is rugby rugby rugby")."""
        if held is not None and held[3] and _says_two_things(held[1]):
            out.append(_told_fact(held[0], held[1], held[2], held[0]))
    # In a message where they speak of themselves, a dated sentence that names no other party is
    # part of their world ("The opening night is tomorrow. I'm working hard on it.").
    mine = bool(_FIRST_PERSON.search(text) or _KO_FIRST_PERSON.search(text))
    month: str | None = None  # the month of the last day the message named: a day alone later is of it
    # A message opening on news of theirs ("got news. kylie and dean are moving to ballarat!!", "Big
    # news: ...") tells of their world in every sentence that is not about the other party.
    news_of_theirs = bool(_NEWS_LEAD.match(text))
    answering = asked is not None  # the next sentence they say answers the question
    # (lines numbered as a list are items, as "1)" are: "1. 차주 수요일 하노이 출장\n2. 협력사 실사"; not one answer, "11. Still U11")
    listed, items = _LINE_NUMBER.subn(r"\1\2) ", text)
    listed = listed if items > 1 else text
    sentences = [_ITEM_NUMBER.sub("", s) for part in _SENTENCE.split(_ko_run_ons(_emoji_breaks(_dictated(listed, theirs | others), heard)))
                 for s in _ITEM.split(part)]
    # (written in 하게체, by its words or by three sentences ending in ~네: its ~네 tells)
    hage = bool(_KO_HAGE.search(text)) or sum(bool(_KO_NE.search(s)) for s in sentences) >= 3
    # (and a day ahead told at some length in ~네 is a plan, as middle age tells it: "담주 목요일 아침 9시에 왼쪽 눈 하네";
    # not "추석 ㄱㅊ네", a reaction)
    said_day = said_at.date().isoformat() if said_at is not None else "9999"
    # (a message where they tell of themselves, not only react: news of someone by name in it is of theirs)
    tells_own = any(_FIRST_PERSON.search(s) and not _OPINION.search(s) for s in sentences)
    untold: tuple[str, list[str]] | None = None  # plain news just passed over, for a day alone after it
    day_alone: tuple[tuple[str, list[str], str | None, bool], str] | None = None  # a day held alone, as said
    promised = -2  # the last sentence dropped as a promise or a wish
    for n, raw in enumerate(sentences):
        line = _SENDS_LOVE_AFTER.sub("", raw).strip()
        if not re.search(r"\w", line):
            continue  # an emoji or a mark alone ("🎉🎉", "..."): nothing told, and the thread goes on past it
        before, untold = untold, None
        asked_what = answering and _ASKS_WHAT.match(asked or "") is not None  # (a word alone may answer it)
        sentence = None if (_THANKS.match(line) or _SIGN_OFF.fullmatch(line) or _SENDS_LOVE.match(line) or fact_dates.only_a_holiday(line)
                            or (n == len(sentences) - 1 and _GOODNIGHT.fullmatch(line))) else _clauses_about_them(
            _without_opening_aside(re.sub(r" {2,}", " ", _FRAME.sub(" ", _LEAD.sub("", line))).strip(" ,")), others, answering, asked_what)
        # (news opening a later line is theirs from there on: "thanks sis\nother news the under 12s are back")
        # (... or a sentence that leads into news it tells: "Tired lol. But good news in the middle of all this:
        # Gabe made the Cardinals!!")
        opener = re.sub(r"^(?i:but|and|so|oh|also|anyway|anyways)\W+(?:(?i:and)\s+)?", "", line)
        lead = n == 0 or (not news_of_theirs and (
            (bool(_NEWS_LEAD.match(line)) and f"\n{line[:40]}" in f"\n{text}")
            or (bool(_NEWS_LEAD.match(opener)) and re.search(r"[:,\u2013\u2014-]\s*\w", opener) is not None and not _news_lead_only(opener))
            # (a lead of its own after a greeting: "Dadash!!!! Salam! I cannot wait to tell you!"; not "Good news!!", which may
            # only greet the other party's)
            or (n > 0 and _news_lead_only(opener) and not re.search(r"\bnews\b", opener, re.IGNORECASE))))
        news_of_theirs = news_of_theirs or (lead and n > 0)
        # (a name alone answering what, which or who is the answer: "what you watching then" - "Reacher."; nor is a word
        # that says something between news and more of it, which names what the news came to: "on Monday we go to
        # Kinderarzt Dr. Schulte / Scharlach. antibiotic 10 days"; not "Anyway.", "Sorry.")
        if sentence and ((_VOCATIVE.fullmatch(sentence) and not asked_what
                          and not (last is not None and 0 < n < len(sentences) - 1 and _says_something(sentence.strip(" .").lower())))
                         or _KO_EXCLAIMED.fullmatch(sentence) or _KO_YOU_MENTIONED.fullmatch(sentence) or (lead and _news_lead_only(sentence))
                         or not re.search(r"\w", sentence)):
            sentence = None  # "Thanks, Mina!": whom they speak to, before the answer; "got news.": a lead; "I told you!": a frame
        answers, answering = answering and bool(sentence), answering and not sentence
        if not sentence:
            release()
            last = held = None
            continue
        sentence = _KO_LOOK.sub("", sentence)  # ("... 프사 바꿨어 봐봐 ㅋㅋㅋ": "look!" asks nothing of what was told)
        if _REQUEST.search(sentence) and not _KO_PAID.search(sentence) and not _KO_THEY_DO.search(sentence):
            last = None  # (a thin sentence before it may still be completed: "저 병원 다녀왔어요! 칭찬해주세요. 지난 금요일에 ...")
            continue
        korean = bool(re.search(r"[가-힣]", sentence))
        if not korean and _opinion_only(sentence):
            release()
            last = held = None
            answering = answers  # (how it went, before what went: "How's Walt?" - "eh. not great. hes on the oxygen now")
            continue
        when = None
        resolved = sentence
        # (a weekday alone after a date is that date's: "we booked Las Palmas. 11 October. Saturday.")
        weekday_alone = n > 0 and fact_dates.only_a_weekday(sentence)
        if said_at is not None and not (weekday_alone and fact_dates.resolve(sentences[n - 1], said_at)[1]):
            if went and not month and not weekday_alone:
                tense_of: str | None = went  # (the first day named after a question of how something went: "how was it" - "we land on monday")
            elif answers:
                tense_of = asked
            elif weekday_alone or held is not None:  # (a weekday alone after the news takes its tense: "she had a fall.
                # Thursday night."; and what completes a thin sentence, the tense of the one fact they make: "I passed /
                # qualifying exam. on Wednesday")
                tense_of = sentences[n - 1]
            else:  # (a learner's bare deed on a weekday, in a message that tells the past, is of it: "oun Boba almost kill me
                # this week lol / on wednesday she jump on the kitchen table")
                # (or the news it heads: "Big news at shop. Kyle quit on friday", "Bad news. Ram transmission die on thursday";
                # or the sentence itself: "She start at Lindenhof on monday and whole week went good")
                tense_of = _A_PAST if _BARE_DEED.search(sentence) and (news_of_theirs or any(
                    fact_dates.tells_a_past(s) or (s is not raw and _A_PAST_DAY.search(s)) for s in sentences)) else None
                if tense_of is None and fact_dates.opens_on_a_weekday(sentence) and not _SUBJECT_OR_VERB.search(sentence):
                    # (a day set off before what happened then, with no verb, is of the story around it, the sentence
                    # before, else one after: "I finally went to the doctor for the wrist!! Wednesday, Dr. Lavoie at the
                    # GMF", "Noémie walks!!! Thursday night, 4 steps between the couch and Sophie. Her first steps!!
                    # then she fell")
                    tense_of = next((s for s in (*sentences[max(0, n - 1):n], *sentences[n + 1:n + 3])
                                     if fact_dates.tells_a_past(s) or fact_dates.tells_to_come(s)), None)
            # (the sentence's own tense read last: the day and the learner are rarer, and cheaper to look for)
            if not korean and (
                    # (a learner's bare deed on a day, answering what was asked of a past: "how is mama? Behruz told me she
                    # was in hospital??" - "on Wednesday night her heart bad, pressure 190, Behruz take her to hospital")
                    (_BARE_DEED.search(sentence) and asked is not None and fact_dates.tells_a_past(asked))
                    # ... or a day with no tense of its own, before a learner's bare deeds (``_LEARNER_DEED``)
                    or (fact_dates.names_a_bare_weekday(sentence) and not _THIRD_PRESENT.search(sentence) and _learner_after(sentences[n + 1:]))
            ) and not fact_dates.tells_a_past(sentence) and not fact_dates.tells_to_come(sentence):
                tense_of = _A_PAST
            resolved, when = fact_dates.resolve(sentence, said_at, tense_of, month)
            month = when[:7] if when and len(when) == 10 and not fact_dates.names_a_holiday(resolved) else month
        # (and a few words the promise goes on to with "too", no verb of their own: "어묵은 내가 박스로 챙겨줄게 ㅋㅋ 라떼 간식도";
        # not what follows it of their own, "버터도 보여줄게요. 6킬로 고양이 ㅋㅋ")
        promise_goes_on = promised == n - 1 and len(sentence.split()) <= 3 and re.search(r"[가-힣]도[\s.!~ㅋㅎ]*$", sentence) is not None
        if korean and ((_promise(sentence) and when is None) or _KO_WISH.search(sentence) or promise_goes_on):
            release()
            last = held = None  # what they will do for the other party (a dated promise is a plan), or a wish
            promised = -2 if promise_goes_on else n
            continue
        called = _KO_HONORIFIC_NAME.match(sentence) if korean else None
        someone_else = called is not None and called.group(1) not in theirs
        own = ((_KO_FIRST_PERSON.search(sentence) and not _KO_MUSING.search(sentence) and not _ko_cried_out(sentence, when)) or (
                   not ((_KO_REACTION.search(sentence) and not ((when is not None and (_KO_LIKELY_PLAN.search(sentence) or _KO_DATED_NEWS.search(sentence)
                                                                                            or ((hage or (when > said_day and len(set(_content(sentence))) >= 3))
                                                                                                and _KO_NE.search(sentence))))
                                                                 or _told_in_hage(sentence, heard, hage)))
                        or (_KO_REACTION_OPENS.match(sentence) and when is None and not _KO_FIGURE.search(sentence))
                        # (a past recalled right after a question to them is of their matter: "8강도 대단한데?? 테니스
                        # 시작한 지 1년밖에 안 됐잖아")
                        or (n > 0 and sentences[n - 1].rstrip().endswith("?") and _KO_RECALLS.search(sentence))
                        or (not answers and _ko_their_topic(sentence, news, theirs)))
                   and not someone_else)
               or (_heard_where_they_went(sentence) and (_KO_KIN.search(sentence) or not someone_else))
               # (and hearsay of one of their people called by name: "동수 씨는 올해 고추를 200주나 심는대요")
               or (called is not None and not someone_else and _KO_HEARSAY.search(sentence))
               # (what they heard, answering what the other party asked: "무슨 일이 있었어요?" - "몰래 준비하고 있었대요";
               # or turning to news of their own: "그리고 PoC 중간 리뷰에서 티켓 처리 시간 40% 줄었대")
               or ((answers or _KO_TURNS.match(sentence)) and _KO_HEARSAY.search(sentence) and not someone_else)
               # (what a message that opens on news to tell goes on to tell, of no one else's: "할 말이 있어요. 어제 도현 씨가
               # 청혼했어요")
               or (news_of_theirs and not _KO_REACTION.search(sentence) and not _OTHER_PARTY.search(sentence))
               ) and (answers or not _ko_their_topic(sentence, suggested, theirs, 1)) if korean else ((
            _FIRST_PERSON.search(sentence) or _begins_with(sentence, _SUBJECT_DROPPED, _EXPERT_TOLD_THEM, _RESULT_CAME)
            or (when is not None and (mine or _TEXTED.match(sentence))) or answers
            or _KIN_NAME.match(sentence) or _names_one_of(sentence, theirs) or news_of_theirs
            or ((tells_own or _CRIED_OUT.search(raw)) and _named_news(sentence, others, heard)))
            and (answers or bool(_FIRST_PERSON.search(sentence)) or not _echoes(sentence, heard)))
        if korean and own:
            sentence, resolved = _KO_LAUGH_OPENS.sub("", sentence).lstrip(), _KO_LAUGH_OPENS.sub("", resolved).lstrip()
        follows = last is not None or held is not None
        # A fragment says more of what came before ("An 8-inch one, 180 quid, it barely fit."):
        # the whole sentence, or the first clause of one that is not theirs alone.
        elaborates = not answers and (_fragment(sentence) or (not own and _fragment(_CLAUSE.split(sentence)[0])))
        continues = follows and bool((not own and _GOES_ON.match(sentence) and not someone_else) or (not korean and _POINTS_BACK.match(sentence))
                                     or (not korean and last is not None and (_ENDS_ON_IT.match(sentence) or _TOOK_IT.match(sentence)))
                                     or (not korean and last is not None and _WHY_OR_HOW.match(sentence))
                                     # a time of what they just told ("Junior UX designer at Lumen! First day is next Monday"),
                                     # or only its day, as Korean adds it ("엄마 수술 날짜 잡혔어. 담주 목요일")
                                     or (not own and last is not None and when is not None and not someone_else)
                                     or (korean and last is not None and when is not None and fact_dates.only_a_day(sentence, said_at))
                                     # ... or what it cost, as Korean goes on ("중성화 수술을 했어요, 15만 원 들었는데 ...")
                                     or (korean and last is not None and _KO_COST_OPENS.match(sentence) is not None)
                                     # what goes on about what was asked, after a thin answer ("Ronnie still your
                                     # gaffer?" - "still there. ronnie's dad started it with one wagon in 1978")
                                     or (held is not None and held[3] and asked is not None
                                         and not _OTHER_PARTY.search(sentence) and bool(set(_content(sentence)) & set(_content(asked))))
                                     # what their doctor or tradesman made of what they just told ("results came
                                     # Friday. No tear! Dr. Grewal said it's adhesive capsulitis only")
                                     or (not korean and last is not None and _EXPERT_SAYS.match(sentence) is not None)
                                     # what an answer in a word goes on to say ("How was the follow-up?" -
                                     # "Daijoubu!! Ultrasound show it is just a cyst")
                                     or (not korean and held is not None and held[3] and not _says_two_things(held[1])
                                         and not _OTHER_PARTY.search(sentence)
                                         and not _echoes(sentence, heard) and not _opens_on(sentence, others))
                                     # ... and the figure a deed of theirs came to, of no one else: after a thin one, in a
                                     # few words ("got my bloods done. HbA1c's down to 39", "weighed in this morning. 92.4");
                                     # after one kept, opening the sentence ("they sewed it up. 9 stitches and the tip of the
                                     # bone is cracked")
                                     or (not korean and not own
                                         and ((held is not None and not held[3] and bool(held[1]) and re.search(r"\d", sentence) is not None
                                               and len(sentence.split()) <= _LEAD_WORDS)
                                              or (last is not None and (re.match(r"\d", sentence) is not None or _PRICED.match(sentence) is not None)))
                                         and not _OTHER_PARTY.search(sentence) and not _SOMEONE_ELSE.search(sentence)
                                         and not _echoes(sentence, heard) and not _opens_on(sentence, others))
                                     or elaborates)
        told_plainly = any(line in told for told in plain)
        if (not own and not continues and not _echoes(sentence, heard) and (
                (told_plainly and when is not None)
                # (past news that opens the conversation, after nothing of the other party's: "yo. MRI came back")
                or (unprompted and not korean and fact_dates.tells_a_past(sentence)
                    and not re.match(relevance.CAPITALISED + r"+['\u2019]s\b", sentence)  # (not someone's by name: "Mina's photos were stunning")
                    and not any(_says_something(w) for earlier in sentences[:n] for w in _content(earlier)
                                if len(earlier.split()) > 1 and (not _FIRST_PERSON.search(earlier) or _OPINION.search(earlier))))
                # (an amount, told plainly or as a fragment of a message of theirs: "Really. $98 one way.")
                or ((told_plainly or (mine and (_fragment(sentence) or (_SHORT_AMOUNT.match(sentence) and not set(_content(sentence)) & heard))))
                    and _AMOUNT.search(sentence) and not _WEIGHS.search(sentence)
                    and not any(all(part in heard for part in figure) for figure in _figures(sentence))))):  # (not their figure: "$600 for a sock")
            own = True  # ("Angiogram done day before yesterday.": whose, the message does not say; theirs)
        if when is not None and last is None and not answers and fact_dates.only_a_day(sentence, said_at):
            # After thin news ("6모 봄" - "지난 수요일에"), or news told plainly without whose it is ("the
            # Beast died. friday."), the day it happened: one fact, the day gone or to come as the news
            # says ("bought a truck. wednesday.": the one gone).
            dates = before if held is None else held[:2] if held[1] else None
            if dates is not None and said_at is not None:
                resolved, when = fact_dates.resolve(sentence, said_at, dates[0], month)
                out.append(_told_fact(_join(dates[0], resolved.strip(" .!")), dates[1], when, dates[0]))
                last, held = len(out) - 1, None
                continue
            if held is None:
                # A day alone opening the news ("5 August. Passed with minor revisions."): what follows
                # happened then.
                held = (_capitalised(resolved.strip(" .!")), [], when, False)
                day_alone = (held, sentence)
                continue
        if not own and not continues:
            release()
            last = held = None
            if (told_plainly or (mine and not korean and len(sentence.split()) <= _LEAD_WORDS)) and when is None and not _echoes(sentence, heard):
                # (... and, in a message of their own news, a short one that what follows tells of by "it":
                # "It's a 2019 Camry. Pearl white. 42 thousand miles. I been had it since Tuesday")
                bare = _third_person(_FILLER.sub("", resolved.rstrip(" .!")))
                untold = ((_join(before[0], bare), [*before[1], *_content(bare)])
                          if before is not None and _fragment(bare) and not fact_dates.tells_a_past(bare) else (bare, _content(bare)))
            continue
        sentence = resolved.rstrip(" .!")
        statement = sentence if korean else _third_person(_FILLER.sub("", sentence))
        content = _content(sentence)
        if (before is not None and held is None and last is None and _says_two_things(before[1])
                and (re.search(r"\b(?:it|them)\b(?!['\u2019]s)", sentence, re.IGNORECASE) or _OF_THE_NAMED.match(sentence))):
            # (... and what it then tells of it: "camry 2022 silver. picked it up two days ago", "ruby
            # jean. born thursday mornin, 7lb 9oz")
            statement, content = _join(before[0], statement), [*before[1], *content]
        elif n == 1 and last is None and held is None and not korean and (when is not None or _SUBJECT_DROPPED.match(sentence)):
            headline = _headline(sentences[0].strip(), sentence)
            if headline:  # ("driver trainer!! start the first monday o next month")
                statement, content = _join(headline, statement), [*_content(headline), *content]
        day = when or (held[2] if held is not None and not held[1] else None)  # (or the day alone before it)
        if continues and last is not None:
            joined = _joined(out[last], statement, content, when)  # it goes on about the previous sentence: one fact
            if joined is not None:
                out[last] = joined
                continue
            if not own:
                last = None
                continue
        elif held is not None and (continues or (own and (_carries(content, when, sentence, covered) or (
                day is not None and _carries([*held[1], *content], day, sentence, covered))))):
            # It completes the thin sentence before it, or that one leads into it ("I got promoted!
            # I'm a senior designer now."), or the two thin ones make a dated fact together ("루나툰이라는
            # 회사야. 다음 달 첫째 주부터 출근해"): one fact, so the lead is not lost.
            opening, opening_when = held[0], held[2]
            if day_alone is not None and day_alone[0] is held and said_at is not None:
                # (the day alone takes the tense of what it dates: "since when?" - "Sunday. They let him go
                # at the FedEx hub end of April" is the Sunday gone)
                again, opening_when = fact_dates.resolve(day_alone[1], said_at, sentence)
                opening = _capitalised(again.strip(" .!"))
            statement, content, when = _join(opening, statement), [*held[1], *content], opening_when or when
        elif held is not None and held[3] and own and content:
            # ... and a thin answer goes on thinly ("오늘 골프 어땠어?" - "92개! 역대 최고"): held together, for
            # what may complete them ("88CC에서 박차장이랑 셋이 쳤어") or kept as the answer they make
            held = (_join(held[0], statement), [*held[1], *content], held[2] or when, True)
            continue
        else:
            release()
        kept, held, last = last, None, None
        if answers and asked:  # what it answers goes with it, held or kept
            statement = f"{asked}? {statement}" if korean else framed(asked, statement)
        # A time that answers a question is whole with it ("Start date?" - "next monday").
        if not (answers and asked and when) and not _carries(content, when, sentence, covered, len(sentences) == 1, kept is None):
            # Too thin alone, right after one of theirs ("Nursing, like me."): it says more of that.
            joined = _joined(out[kept], statement, content, when) if kept is not None and own and content else None
            if kept is not None and joined is not None:
                out[kept], last = joined, kept
                continue
            slot_said = bool(content) and all(_covered(w, covered) for w in content)  # "My name is Minji.": a slot holds it
            # (an answer, not one that repeats their news or opens on whom they told of: "How's Leanne? Shelley's
            # up for a promotion" - "Shelley got the promotion")
            answered = answers and bool(asked) and not _echoes(sentence, heard) and not _opens_on(sentence, others)
            held = (statement, content, when, answered) if own and not slot_said else None
            continue
        out.append(_told_fact(statement, content, when, sentence))
        last = len(out) - 1
    release()
    if said_at is not None:  # when it was said, on what names no time of its own
        said = said_at.date()
        # (in Korean as an ISO date: "2024년 3월 13일에 말함" costs 17 tokens, "2024-03-13에 말함" 12, and
        # a Korean fact is 30-40 tokens: the facts budget holds about an eighth more of them)
        out = [c if c.when else c.model_copy(update={"statement": c.statement + (
            f" ({said.isoformat()}에 말함)" if re.search(r"[가-힣]", c.statement) else f" (said {fact_dates.day_text(said)})")})
            for c in out]
    return out


def _told_fact(statement: str, content: list[str], when: str | None, sentence: str) -> FactCandidate:
    """The fact a told statement makes, keyed by its topic (its content words) and whether it is dated."""
    if len(statement.split()) > MAX_WORDS:
        statement = " ".join(statement.split()[:MAX_WORDS]) + "…"
    value = " ".join(t for t in content if t not in _KO_SELF)
    topic = _topic([t for t in content if t.isalnum() and t not in _KO_SELF and not t.isdigit()])
    try:
        key = normalise_key(f"{'event' if when else 'note'}.{topic}")
    except ValueError:
        key = "note.other"
    return FactCandidate(key=key, value=value[:300] or sentence[:300], statement=statement[:400], when=when)


_PRONOUNS = frozenset("he she they them him her his hers its it we us you".split())


def _says_something(word: str) -> bool:
    """Whether a content word says something of its own: no interjection, pronoun or word of speech
    ("Its ok", "Ha no", "Shes ok" say nothing; "rugby", "쏘렌토" do), no laugh."""
    hangul = len(re.findall(r"[가-힣]", word))  # (not ASCII alone: a name written with accents says something, "Łucja")
    return hangul >= 2 if hangul else (len(word) >= 3 and word not in _INTERJECTIONS and word not in _NOT_A_NAME and word not in _PRONOUNS)


# What a thing of the news before it comes to ("towed to dawson, 300 bucks. rebuild is 6800 at bonanza automotive"):
# one thing, in a word or two, and its figure.
_PRICED = re.compile(r"(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:is|was|came\s+to|comes\s+to|cost|costs)\s+(?:like\s+|about\s+|around\s+)?[$£€]?\d", re.IGNORECASE)
# Someone who looked at their matter for them, and what they said or did of it ("Physio say it is
# tendonitis", "the mechanic reckons it's the gearbox", "Dr. Okafor switched him to that inhaler").
_EXPERTS = (r"doc|doctor|(?:dr\.?|dottor|dottoressa|doktor|doutora?)\s+" + relevance.UPPER + r"[\w'-]+|GP|physio|vet|nurse|surgeon|specialist|consultant|dentist|optometrist"
            r"|optician|radiologist|mechanic|plumber|electrician|builder|inspector|surveyor|lawyer|solicitor|accountant")
# (... and where they work: "the doctor of Pisac say is cataract", "the vet at Greenside said")
_EXPERT_PLACE = r"(?:(?:of|at|in|from)\s+(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*))?\s+)?"
_EXPERT_SAYS = re.compile(r"^(?:(?:and|but|so|then|now)\s+)?(?:the\s+|my\s+|our\s+|his\s+|her\s+)?(?:" + _EXPERTS + r")"
                          r"\s+(?:(?:dr\.?\s+)?\w+\s+)?" + _EXPERT_PLACE + r"(?:said|says|say|told|tells|thinks|reckons|found|confirmed|switched|put|sent|gave|prescribed"
                          r"|started|referred|upped|increased|changed|checked"
                          r"|is(?=\s+(?:the|my|his|her|our)\s+(?:surgeon|doctor|specialist|consultant|dentist|physio|vet|lawyer)\b))\b"
                          # (and by name: "vet Dr. Gajdoš said heart is little weak"; and who they are to the matter: "surgery is on
                          # Tuesday. at the hospital of Udine, day hospital. dottor Pittioni is the surgeon")
                          # ... or named first, with what they are to the matter ("Ntate Lefu the driver says it jumps out of third gear")
                          r"|^(?:(?:and|but|so|then)\s+)?(?-i:(?:[A-Z][\w'-]*\s+){1,2})the\s+(?:" + _EXPERTS +
                          r"|driver|teacher|coach|foreman|supervisor|manager|boss|agent|landlord)\s+(?:said|says|say|told|tells|thinks|reckons)\b"
                          # ... or a firm of tradesmen by its name, and what it did ("Cajun Cool Air came out and said the
                          # compressor gone", "Mokgosi Motors in Gaborone West did the clutch kit", "Darius from DK Motors say is clutch")
                          r"|^(?:(?:and|but|so|then)\s+)?(?-i:(?:" + relevance.CAPITALISED + r"+\s+(?:from|at)\s+)?(?:[A-Z][\w'&-]*\s+){1,3}(?:Motors|Autos?|Garage|Plumbing|Electric|Electrical|Heating"
                          r"|Cooling|Air|Roofing|Repairs?|Services|Removals|Builders|Glass|Tyres|Tires|Towing|Mechanics|Appliances|HVAC))"
                          r"(?:\s+(?:in|from|on)\s+(?-i:[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?))?"
                          r"\s+(?:came|come|said|says|say|told|tell|quoted|fixed|replaced|did|found|towed|installed|sent|put)\b"
                          # ... or what the one just named said, its subject left out ("the travelling vet came thru last
                          # week, dr bev. says moose has arthritis in both hips")
                          r"|^(?:(?:and|but|so|then)\s+)?(?:says|said)\s+(?!(?:you|u|ya|i|me)\b)\w"
                          # ... or anyone by name, of "it", the thing just told ("and the Volvo is fixed. Jákup say it was a
                          # hose on the turbo")
                          r"|^(?:(?:and|but|so|then)\s+)?(?-i:" + relevance.CAPITALISED + r"+)\s+(?:said|says|say|told\s+(?:me|us))\s+(?:that\s+)?(?:it|its|it's|it\u2019s)\b",
                          re.IGNORECASE)
# ... and news the visitor had from one of them, or from a school, bank or office of theirs, the
# visitor unsaid ("dr hebert called. its basal cell", "the school called.", "and the feet, the doctor
# say plantar fasciitis"): whose matter it is the message does not say; theirs, as the call was.
_EXPERT_TOLD_THEM = re.compile(r"^(?:(?:and|but|so|then|now|finally)\s+)?(?:the\s+|my\s+|our\s+)?(?:" + _EXPERTS +
                               r"|school|bank|hospital|clinic|surgery|pharmacy|agency|landlord|insurance|insurers|council|garage|lab)"
                               r"\s+" + _EXPERT_PLACE + r"(?:finally\s+|just\s+)?(?:said|says|say|told|called|rang|phoned|rung|emailed|texted|wrote)\b"
                               r"(?!\s+(?:you|u|ya|him|her|them)\b)", re.IGNORECASE)
# ... and so is what a test of theirs found, told without whose ("and MRI result come. disc hernia L5-S1",
# "Result is partial tear of rotator cuff", "bloods came back fine"): not another's ("her scan"), nor one asked after.
_RESULT_CAME = re.compile(r"^(?:(?:and|but|so|then|now|finally|ok|okay)\s+)?(?:the\s+|my\s+|our\s+)?"
                          r"(?:(?:(?:MRI|CT|scan|x-?ray|biopsy|blood|bloods|blood\s+work|bloodwork|labs?|tests?|ultrasound|ECG|EKG|echo|mammogram"
                          r"|colonoscopy|endoscopy|EMG|PET)\s+){1,2}(?:results?\s+|report\s+)?|results?\s+)"
                          # (or of an exam, named after it: "the results of the math bagrut came, 94!!")
                          r"(?:of\s+(?:the\s+)?(?:[\w'-]+\s+){1,3}?)?"
                          r"(?:is|are|was|were|came|come|comes|show|shows|showed|say|says|said|back)\b(?![^.!?]*\?)", re.IGNORECASE)


def _says_two_things(content: list[str]) -> bool:
    """Whether content words hold two that say something (``_says_something``): enough to keep a thin
    answer, or a lead, that nothing else completes."""
    return len({w for w in content if _says_something(w)}) >= 2


_KO_COPULA = "(?:이다|이야|이에요|이예요|입니다|임|예요)"
_DEEDS = "합격|통과|등록|계약|예약|수료|졸업|입사|이직|승진|완료|완주|개업|출산"  # (what is done by 하다: 합격했어, 합격함)
# A Korean sentence of two words, what and its past, says who did it by saying no one: "필기 붙었어", "면허 땄음",
# "필기 붙음" (texting's nominal ending); not of the listener ("너 차 샀어?") nor a feeling or a thanks.
_KO_DONE_ALONE = re.compile(r"\W*(?!(?:너|니|넌|네가|니가|걔|걔가|쟤|그거|이거|저거|수고|고생|연락|얘기|축하|감사|걱정|대박|진짜|완전|너무|다|잘|벌써|이제)\s)"
                            r"[가-힣]{2,}\s+(?:(?:붙었|땄|샀|팔았|받았|뽑혔|잡았|구했|찾았|고쳤|옮겼|바꿨|끝냈|마쳤|(?:" + _DEEDS + r")했)(?:어|다|음)|(?:붙|땄|받)음|(?:" + _DEEDS + r")함)"
                            r"[.!~^ㅎㅋㅠㅜ\s]*$")
# A Korean sentence that ends doing what its noun names ("위내시경 해요", "이사 했어요", "면접 봐요"): the
# noun is the event. (Not thanks, wishes or talk: 수고했어요, 연락해요, 축하해요.)
_KO_DOES = re.compile(r"(?<![가-힣\d])(?!(?:수고|고생|연락|얘기|이야기|말씀|축하|감사|사랑|화이팅|파이팅|부탁|걱정)\s)[가-힣]{2,}(?<![에일월년주])(?<!에서)\s+"
                      r"(?:해요|했어요|해|했어|함|했음|합니다|했습니다|하기로\s*했[가-힣]*|할\s*거(?:예요|야)|할게요|봐요|봤어요|받아요|받았어요)"
                      r"[.!~^ㅎㅋㅠㅜ\s]*$"
                      # ... or what the day is, in a copula ("담주 화요일 면접이다", "토요일 결혼식이야"); not a judgement,
                      # nor the day itself ("2025년 3월 18일 화요일이다": the day of the news before it)
                      r"|(?<![가-힣])(?!(?:최고|대박|다행|짱|장난|난리|걱정|문제|마지막|처음|끝|주말)" + _KO_COPULA + r")(?![가-힣]*요일)"
                      r"[가-힣]{2,}" + _KO_COPULA + r"[.!~^ㅎㅋㅠㅜ\s]*$")


# What one is, for good or for a long while, in one word ("I'm anaemic", "im pregnant", "I am retired"):
# news of their life however short.
_STATE_OF_LIFE = re.compile(r"\b(?:I['\u2019]?m|I\s+am)\s+(?:now\s+|officially\s+|finally\s+|still\s+)?(?:pre-?)?"
                            r"(?:pregnant|an(?:a)?emic|diabetic|engaged|married|divorced|separated|widowed|retired|redundant"
                            r"|unemployed|vegan|vegetarian|sober|co?eliac|asthmatic|epileptic|deaf|dyslexic|autistic|menopausal)\b",
                            re.IGNORECASE)


def _carries(content: list[str], when: str | None, sentence: str, covered: set[str], alone: bool = False,
             first: bool = False) -> bool:
    """Whether a sentence's content words are worth a fact of their own: three words that carry
    something; two when it names its time ("I went to the dentist yesterday") or says "I" ("i
    adopted a cat") or, when nothing kept before it in the message, "we" ("massive relief. but we've
    cancelled benidorm"), or says 나 or 저 in a message of one sentence ("민지야 나 상견례 했다": the news
    it was sent for); one when it names its time and a place or someone ("I've been to Paris
    yesterday"); not all of them held by a slot fact of the message (Korean particles ride on the
    word, 음식을: a slot's 음식 covers it)."""
    # (Korean names have no capitals: one word is enough when it says 나 or 저, "나 내일부터 휴가다", or
    # when it is what is done on that day, "담주 화요일 위내시경 해요")
    if _STATE_OF_LIFE.search(sentence):
        needed = 1  # ("I'm anaemic": what they are, however short)
    elif when:
        needed = 1 if _NAMED_THING.search(sentence) or _KO_FIRST_PERSON.search(sentence) or _KO_DOES.search(sentence) else 2
    else:
        needed = 2 if (_I.search(sentence) or (first and _WE.match(sentence)) or (alone and _KO_FIRST_PERSON.search(sentence))
                       or _KO_DONE_ALONE.match(sentence)) else 3
    return len(set(content)) >= needed and not all(_covered(w, covered) for w in content)


def _covered(word: str, covered: set[str]) -> bool:
    """Whether a slot fact of the message already holds ``word`` (a Hangul word with its particle too)."""
    return word in covered or (not word.isascii() and any(len(c) > 1 and word.startswith(c) for c in covered))


def _joined(fact: FactCandidate, statement: str, content: list[str], when: str | None) -> FactCandidate | None:
    """``fact`` with a following sentence that says more of it; None when the two would be too long."""
    if len(fact.statement.split()) + len(statement.split()) > MAX_WORDS:
        return None
    value = " ".join(dict.fromkeys([*fact.value.split(), *(t for t in content if t not in _KO_SELF)]))
    return fact.model_copy(update={"statement": _join(fact.statement, statement), "value": value[:300], "when": fact.when or when})


def _join(first: str, then: str) -> str:
    """Two sentences as one statement (the date note, if any, stays at the end; an emoji ends
    the first as a full stop would)."""
    return f"{first}{'' if _EMOJI_END.search(first) else '.'} {_capitalised(then)}"


def with_context(found: list[FactCandidate], text: str, said_at: datetime | None,
                 previous: str | None, earlier: str | None = None) -> list[FactCandidate]:
    """``found`` (whichever model extracted it from ``text``) with the words around each told
    statement that it does not say (FactCandidate.context): the questions the message answers
    ("How was Jeju?"), then the rest of the message, then, while there is room, the visitor's
    message before it (``earlier``: whom "she" is in "ya, 3rd year architecture"), time words
    resolved away. Only to be searched: the other party's words are never sent as the visitor's."""
    around = " ".join([*(_OTHER_PARTY.sub(" ", q) for q in _questions(previous)),
                       *(fact_dates.resolve(t, said_at)[0] if said_at is not None else t for t in (text, earlier) if t)])
    words = [w for w in relevance.plain_words(_DATES.sub(" ", around))
             if relevance.stem(w) not in _NOT_TOPIC and (len(w) > 1 or w.isdigit())]
    out = []
    for c in found:
        if c.key.split(".", 1)[0] not in TOLD:
            out.append(c)  # a slot says what it is about
            continue
        said = set(relevance.words(c.statement))
        context = ""
        for w in (w for w in words if relevance.stem(w) not in said):
            if len(context) + len(w) + 1 > CONTEXT_MAX_CHARS:
                break
            context = f"{context} {w}".lstrip()
        out.append(c.model_copy(update={"context": context}) if context else c)
    return out


# (with the endearment after it, part of the address: "Marnie me love it's gone ten", "There Marnie my dear")
_ENDEARMENT = r"(?:\s+(?i:me|my)\s+(?i:love|dear|darling|son|maid|duck|girl|lovely|lad|friend))?"


# A greeting or a farewell with a name ("evening Morag.", "Morning Juniper it's Randy", "Talk soon
# Remy", "Goodnight Bea."): whom they text, said to them; it goes, and so does the same name standing as an
# address elsewhere in the message ("Morag we won it", "... Wednesday Morag!"); partings as Italy, Austria, Germany,
# Russia and Spain say them too ("Ciao Rosmarie, greet me Luis").
_GREETED = re.compile(r"(?:^|(?<=[.!?,]\s)|(?<=\s))(?<!no\s)(?i:(?:good\s*)?(?:morning|evening|afternoon|night|nite)|gm|gn|hi|hiya|hey|heya|hello|howdy|howzit|yo|namaste"
                      r"|cheers|thanks|ta|salamat|talk\s+(?:later|soon)|speak\s+soon|later|bye|alright|right"
                      r"|ciao|servus|tsch[üu]ss|poka|adi[oó]s)(?:[ \t]+there)?[ \t]+(?!(?:Monday|Tuesday|Wednesday|Thursday"
                      r"|Friday|Saturday|Sunday|All|Everyone|Guys|There|Then|Now|Mate|Love|Darling|Dear"
                      # (kin and endearments are no name: "Hi Mum" does not make Mum whom "with Mum" names; the
                      # family words _KIN_NAME knows, "Hi Amma", "Morning Oma", are none either)
                      r"|(?i:" + _KIN_WORDS + r")|Sis|Bro|Son"
                      r"|Babe|Baby|Honey|Hun|Sweetie|Auntie|Aunty|Uncle|Cuz|Doc|Sir|Madam|Ate|Kuya|Tita|Tito|Lola|Lolo)\b)(" + relevance.CAPITALISED + r"{1,11})\b" + _ENDEARMENT +
                      r"(?:\s*[.!?,]+\s*|\s*$|[ \t]*\n|\s+(?=(?i:i|i'm|i've|im|ive|we|it's|its|it|they)\s))")
# ... and texting writes the name small ("cheers mo", "gday mo.", "ta mo"): after a greeting that
# is no noun's first word ("morning walk.", "night shift!" are none), a small word that ends the
# sentence or comes before "I" or "it", and is no word of speech nor a word for anyone ("cheers
# mate", "thanks heaps", "hi all").
_SMALL_GREETED = re.compile(r"(?:^|(?<=[.!?,]\s))(?i:hi|hiya|hey|heya|hello|howdy|howzit|yo|g'?day|cheers|thanks|thx|ta|bye)[ \t]+([a-z]{2,8})"
                            r"(?:\s*[.!?]+\s*|\s*$|[ \t]*\n|\s+(?=(?:i|i'll|ill|i'm|im|i've|ive|we|it's|its|it)\s))")
_NOT_CALLED_SMALL = frozenset("mate mates all everyone everybody guys heaps lots again there love hun hon babe baby buddy bud pal dude "
                              "bro sis cuz cousin man girl girls lads ladies folks team both doc sir stranger darling dear sweetie "
                              "pet hen duck chuck petal cariad mahal anak beta habibi yaar boo bub honey bhai boet bru chum didi akka kuya ate".split())


def _small_greeted(text: str) -> list[re.Match[str]]:
    """The greetings in ``text`` that name whom they text small (``_SMALL_GREETED``)."""
    return [m for m in _SMALL_GREETED.finditer(text)
            if _small_name(m.group(1)) and m.group(1) not in _NOT_CALLED_SMALL and m.group(1) not in _INTERJECTIONS
            and not re.fullmatch(_KIN_WORDS, m.group(1))]  # ("hey nan": family, no name)


# A Korean message opening on whom it is said to: a name with the vocative 아 after a closed
# syllable and 야 after an open one ("서진아!!", "세희야 나 붙었어"), a name with 님 or 씨 ("모모님,",
# "하루씨 ..."), or, when it opens the conversation, a bare name set off ("다온, 오늘 ...", "아리,").
_KO_CALLED = re.compile(r"^\s*([가-힣]{1,4}?)(아|야|님|씨)?([,!~.]*)(?=\s|$)")
# Titles and kin, said with 님 or 씨 or 아/야, are no names (사장님, 아저씨, 언니야); forms of a verb
# or a word read as name and 아/야 (괜찮아, 이거야, 진짜야) are none either.
_KO_NOT_CALLED = frozenset("어머 아버 장모 장인 시어머 시아버 선생 사장 부장 과장 차장 팀장 실장 원장 교수 기사 목사 대표 이사 고객 회원 손님 아저 아가 마음"
                           " 언니 누나 오빠 엄마 아빠 동생 할머 할아 이모 고모 삼촌 괜찮 귀찮 점잖 이거 그거 저거 어디"
                           " 누구 진짜 정말 최고 여기 거기 저기 처음 다행 아직 그래 그러 아니 이제 지금 내일 오늘 어제 벌써 하나 미안 고마".split())


def _closed(syllable: str) -> bool:
    """Whether a Hangul syllable ends in a consonant (받침)."""
    return (ord(syllable) - 0xAC00) % 28 != 0


_KO_VERB_BEFORE_YA = "봐해와워줘돼써려겨쳐져혀"


def _called(text: str, previous: str | None) -> FactCandidate | None:
    """The name the visitor calls whom they text (``_GREETED``, ``_KO_CALLED``), as ``agent.name``: a
    greeting opening the message or a sentence ("Hi Bea, it's Peggy", "... says. ta Morag"), not one
    where the word is speech ("we'll do it later Pushed it back")."""
    m = next((m for m in (*_GREETED.finditer(text), *_small_greeted(text)) if _GREETING_OPENS.fullmatch(text, 0, m.start())), None)
    name = m.group(1).capitalize() if m else None
    k = _KO_CALLED.match(text) if name is None else None
    if k is not None:
        word, vocative, mark = k.groups()
        if word in _KO_NOT_CALLED or set(word) <= set("하허흐히호후"):  # (a laugh, "하하,", is no name)
            return None
        if vocative in ("아", "야"):
            # (not a verb's ~아야/~어야, "only once it is done": "가봐야 안다", "해봐야 안다")
            name = word if len(word) == 2 and _closed(word[-1]) == (vocative == "아") and word[-1] not in _KO_VERB_BEFORE_YA else None
        elif vocative:  # (set off, or opening the conversation: "순자씨 성가대 ..." is said of her)
            name = word + vocative if len(word) >= 2 and (mark or previous is None) else None
        else:  # a bare word is an address only where a conversation opens on it, set off
            name = word if (previous is None and 2 <= len(word) <= 3 and mark[:1] in (",", "~")
                            and _KO_VOCATIVE.match(text)) else None
    return FactCandidate(key=AGENT_NAME, value=name, statement=f"Calls you {name}") if name else None


# What follows a name said as an address ("Morag we won it", "Bea you will never guess", "Pip, the
# hushpuppies"), where the same name before a verb is news of them ("Anneke teaching at York").
_BEFORE_ADDRESS = r"(?i:ok|okay|oh|well|so|yes|yeah|no|sorry|aw|ah|and|but|anyway|anyways|alright)"  # ("Ok Bea I have a PT appointment")
# What may stand before a greeting that names them: nothing, a sentence's end, or a word that leads
# on ("Hi Bea, it's Peggy", "... says. ta Morag", "Well hello there Marnie"), not speech ("we'll do it
# later Pushed it back").
_GREETING_OPENS = re.compile(rf"(?:[\s\S]*[.!?,])?\s*|(?:[\s\S]*[.!?,]\s*)?{_BEFORE_ADDRESS}\s*")
# (and after a word that leads on, anywhere: "그래야겠어요 그리고 새미 저 집 문제도 있어요", typed by voice)
_KO_BEFORE_ADDRESS = "(?:그리고|근데|그런데|아|참|아참|그래서|암튼|아무튼|저기|네|응|어)"
_NOT_A_VERB = (r"(?!(?:got|went|made|took|came|said|told|did|gave|left|won|lost|saw|ran|bought|sold|had|has|is|was|will"
               r"|would|can|could|and|or|but|too|again|here|there)\b)")
_AFTER_ADDRESS = (r"(?i:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|you|u|it|it's|its|they|this|that|the|my|me|our|guess|so"
                  r"|well|oh|ok|okay|yes|no|just|thank|thanks|sorry|good|great|hope"
                  # (or what they ask of them: "Jarvis meet Laddoo", "Bea remind me")
                  r"|meet|check|look|remind|tell|help|find|remember|listen|note|add|save|show|send|please)\b")


def _without_called(text: str, called: Collection[str]) -> str:
    """``text`` without a greeting to whom they text (``_GREETED``) and without the name they call
    them (greeted here, or ``called`` before) where it stands as an address: opening a sentence
    ("Morag we won it!", "Pip comma this is me", "다온 저 왔어요", "민수야 나 ...") or closing one
    ("got the car Wednesday Morag!", "잘게요 다온"); not where it is said of them ("with Morag",
    "Bea's idea", "다온은 요즘 어때요?")."""
    small = _small_greeted(text)
    names = {m.group(1) for m in _GREETED.finditer(text)} | {m.group(1).capitalize() for m in small} | set(called)
    for m in reversed(small):
        text = text[:m.start()] + text[m.end():]
    text = _GREETED.sub("", text)
    for name in sorted(names, key=lambda n: (-len(n), n)):  # (the longest first, "상호야" before "상호": the same every run)
        name = re.escape(name)
        if name[:1].isascii():
            # (closing a sentence it may be texted small: "im driving again mo!!", not "half a mo.")
            text = re.sub(rf"(?<![.!?])(?:\s*,)?\s+(?<!\bwith\s)(?<!\bto\s)(?<!\bfor\s)(?<!\band\s)(?<!\bfrom\s)(?<!\bat\s)(?<!\bof\s)(?<!\bby\s)"
                          rf"(?<!\ba\s)(?<!\bthe\s)(?:(?<!\b[Nn]o\s)(?i:sorry|thanks|cheers)\s+)?(?:{name}|{name.lower()}){_ENDEARMENT}(?=\s*[.!?,]|\s*$)", "", text)
            text = re.sub(rf"(?:^|(?<=[.!?]\s))(\s*(?:{_BEFORE_ADDRESS},?\s+)?){name}{_ENDEARMENT}(?:\s*,|\s+comma)?[!.]*\s+"
                          rf"(?={_AFTER_ADDRESS})(\S)",
                          lambda m: m.group(1) + (m.group(2) if m.group(1).strip() else m.group(2).upper()), text)
            # ... and opening the message before a small noun, texting's case kept ("Tuna basement flooded
            # thursday"), not a verb's form ("Tuna got a boat")
            text = re.sub(rf"^\s*{name},?\s+(?=[a-z])(?![a-z]+(?:ing|ed|s)\b){_NOT_A_VERB}", "", text)
        else:
            text = re.sub(rf"(?:^|(?<=[.!?]\s)|(?<![가-힣])(?=\s*{_KO_BEFORE_ADDRESS}\s))(\s*(?:{_KO_BEFORE_ADDRESS}\s+)?){name}(?:아|야)?[,!~.]*(?:\s+|$)"
                          rf"|(?:\s*,)?\s+{name}(?:아|야)?(?=[.!?~^ㅎㅋㅠㅜ]*(?:\s*$)|[.!?~]+\s)", lambda m: m.group(1) or "", text)
    return text


def _without_address(text: str, previous: str | None, called: Collection[str] = ()) -> str:
    """``text`` without the name it opens on to whom they speak (``_KO_VOCATIVE``, ``_SMALL_VOCATIVE``,
    ``_without_called``). Not a word the other party just said ("chilli i can do": what they were
    offered), and not the message's first word after their question: a bare word answers it
    ("목표 있어?" - "일본어!")."""
    after_question = (previous or "").rstrip(" ~^ㅋㅎㅠㅜ").endswith("?")
    text = _without_called(text, called)
    if not after_question:
        text = _KO_VOCATIVE.sub("", text)
    heard = re.findall(r"[a-z]+", (previous or "").casefold())

    def unless_a_word(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        addressed = (word not in _INTERJECTIONS and _small_name(word) and word not in heard
                     and (m.start() > 0 or not after_question))
        return "" if addressed else m.group(0)

    return _SMALL_VOCATIVE.sub(unless_a_word, text)


# "I" as Scots (and the American South) write it: "ah'm lyin on the flair", "ah've", "ah cannae", "ah
# lost" (not the interjection: "ah well", "Ah, never mind", "ah go on then").
_AH_I = re.compile(r"\b[Aa]h(?=['\u2019](?:m|ve|ll|d)\b|\s+(?:was|wis|had|hae|have|cannae|canny|cant|can't|couldnae|could|will|wid|would"
                   r"|widnae|didnae|dinnae|don't|dont|did|got|goat|think|hink|thought|know|knew|went|like|lost|need|want|love|am|seen|saw"
                   r"|told|telt)\b)")


# ... and as London's youth say it, "man" for I: "man went selhurst sat", "man's going wembley", "then man
# can start easing in" (not "the man went", "my man", nor "man, ..." or "man city").
_MAN_I = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n)|" + "|".join(rf"(?<=\b{w}\s)" for w in "and so but then lol fam cuz bruv tho now cos cause".split())
                    + r")[Mm]an(['\u2019]s)?"
                    r"(?=\s+(?:just\s+|still\s+|never\s+|actually\s+|really\s+)?(?:went|go|goes|going|gonna|got|get|felt|feel|drives|drove|can|cant|can't"
                    r"|could|couldn't|will|would|ain't|aint|is|was|bought|paid|picked|started|finished|need|needs|wants|want|has|had|think|thinks"
                    r"|reckons|tired|done|booked|passed|failed|sorted|seen|saw|told|said|knows|know|off|back|moving|working|starting|finishing)\b)")


# "Him" with its h dropped, as the North of England and the Caribbean write it, after a verb that
# takes someone or a word that leads to someone ("jean took im a butty", "give im a start", "sat wi im
# all night"), not "I'm" ("and im 34", "so im off").
_HIM = re.compile(r"\b((?:took|take|takes|give|gives|gave|told|tell|tells|asked|ask|let|saw|seen|call|called|rang|ring|sent|send"
                  r"|bought|buy|paid|pay|lent|lend|help|helped|show|showed|for|to|with|wi|wiv|at|about|from|behind|beside) )im\b(?!['’])",
                  re.IGNORECASE)


def _man_as_i(m: re.Match[str]) -> str:
    return "I'm" if m[1] else "I"


# A message shouted in capitals, as some type every message ("FURNACE DIED WEDS. CAME HOME FROM THE VAN RUN
# 1800"), or a sentence of news shouted in one ("Now my own news. THEY CALLED ME ON THURSDAY."): read as
# texted in small letters, "I" as I, so that its days, its "I" and its news read as anyone's (its names, and
# whom it greets, as texted small: "TAYO I GOT INTO OHIO STATE"). Not a word or two of emphasis ("AND we have
# a car again!!") nor a short cry ("OMG!!").
_SHOUTED_LETTERS = 12


def _shouted(text: str) -> bool:
    letters = [c for c in text if c.isascii() and c.isalpha()]
    return len(letters) >= _SHOUTED_LETTERS and sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _unshouted(text: str) -> str:
    """``text`` in small letters where it is written in capitals: the whole message, or a sentence of it
    (``_SHOUTED_LETTERS`` letters and more, nine in ten capital)."""
    def calmed(part: str) -> str:
        return re.sub(r"\bi\b", "I", part.lower())
    if _shouted(text):
        return calmed(text)
    return re.sub(r"[^.!?\n]+", lambda m: calmed(m[0]) if _shouted(m[0]) else m[0], text)


# Korean cute speech (애교체) turns an ending's last syllable: ~요 to ~용 ("축하해용", "드셔용"), ~다 to ~당
# ("봤당", "예쁘당"), ~죠 to ~쥥 or ~죵, ~네 to ~넹: read as the ending it stands for, so that a request, a
# promise or a reaction in it reads as one ("보내줄게용" promises; "식당", "내용", "비용" stay what they are).
_AEGYO = re.compile(r"(?<=[해어아게데네세예에까래줘봐와워져려쳐셔])용(?![가-힣])|(?<=[" + _PAST_SYLLABLES + r"겠싶있없좋쁘프이])당(?![가-힣])"
                    r"|(?<=[가-힣])(?:쥥|죵)(?![가-힣])|(?<=[가-힣])넹(?![가-힣])")
_AEGYO_PLAIN = {"용": "요", "당": "다", "쥥": "죠", "죵": "죠", "넹": "네"}


# ... and disbelief at one's own news, which asks and tells nothing ("평단 7만2천인데 지금 5만3천 실화냐", "이게 말이
# 되냐", "Ya Lina yesterday you will not believe. ..."): the news without it, and its day with it.
_DISBELIEF = re.compile(r"\s*(?:실화(?:냐|임|야|냐고)?|말이\s*되냐|이게\s*맞냐)\s*\?*(?=[.!~^ㅋㅎㅠㅜ\s]*(?:$|\n))"
                        r"|[,\s]*\b(?:you|u)\s+(?:will\s+not|won['\u2019]?t|wont|would\s+not|wouldn['\u2019]?t|will\s+never|not\s+gonna)\s+believe"
                        r"(?:\s+(?:this|it|me|what\s+happened))?\b", re.MULTILINE | re.IGNORECASE)


# A face typed in marks (":)", ":-(", ";)", ":D"), as texts without emoji carry them: an emoji, read as one.
_EMOTICON = re.compile(r"(?:(?<=\s)|^)[:;]-?([()DPp])(?=\s|$)")
_EMOTICON_EMOJI = {")": "\U0001F642", "(": "\U0001F641", "D": "\U0001F600", "P": "\U0001F61B", "p": "\U0001F61B"}


def _plain_speech(text: str) -> str:
    """``text`` with 애교체's endings as the endings they stand for (``_AEGYO``), without disbelief (``_DISBELIEF``),
    and with its typed faces as emoji (``_EMOTICON``)."""
    return _EMOTICON.sub(lambda m: _EMOTICON_EMOJI[m[1]], _DISBELIEF.sub("", _AEGYO.sub(lambda m: _AEGYO_PLAIN[m[0]], text)))


# Someone named with 씨 as the subject or object of what is told ("동훈 씨가", "민정 씨는"), as a wife may name her
# husband; not one called with it ("지혜 씨~", an address).
_KO_HONORED = re.compile(r"(?<![가-힣])([가-힣]{2,3}) 씨(?=[가는도랑의를와만]|한테|께|하고|에게|처럼|보다|\s)")


# A suggestion turned down by naming it and then "no" ("Golden milk. Hmm. Sorry Ursula, but no.", "An app that tells
# me stories? No merci 😄", "Karela no way 😂"): the name alone is no sentence and "no" alone no news, so the two are
# read as one refusal ("No Golden milk for me."), when the name echoes what the other party just said.
# "No" as the visitor's other tongue says it (German, French, Dutch, the Nordic tongues, Russian, Wolof,
# Swahili, Japanese): "Acupuncture deedeet."
_NO_ELSEWHERE = r"nein|non|nee|nej|nei|niet|nyet|deedeet|hapana|iie"
_ECHO_THEN_NO = re.compile(r"(?:^|(?<=[.!?]\s))(?P<echo>[^\W\d][^.!?\n]{1,40}?)(?:[.?]+\s+(?:(?:hmm+|well|ah|oh|haha)[.,!]*\s+)*"
                           r"(?:sorry(?:\s+[^\W\d]\w*)?,?\s+(?:but\s+)?)?|\s+(?=no\s+way\b|nope\b|" + _NO_ELSEWHERE + r")|,\s+(?=no\b))"
                           r"(?:no(?:\s+(?:thanks|thank\s+you|merci|danke|gracias|way|ma['\u2019]?am|sir))?|nope|nah|(?:hard\s+)?pass|" + _NO_ELSEWHERE + r")\b[.!]*"
                           r"(?=\s*$|\s+[^\w\s]|\s+(?-i:[A-Z]))", re.IGNORECASE | re.MULTILINE)  # (the "no" a sentence of its own)


# ... and one turned down by "no to" or "pass on" it ("Respectfully, no to Libby.", "Hard pass on the Calm app").
_NO_TO = re.compile(r"^(?:(?:respectfully|honestly|sorry|thanks\s+but|but)\W+)*"
                    # (... or a pass to come: "gonna pass on the bear", "I'll pass on the Calm app")
                    r"(?:(?:i['\u2019]?ll|i\s+will|we['\u2019]?ll|(?:i['\u2019]?m\s+|we['\u2019]?re\s+)?(?:gonna|going\s+to)|i\s+think\s+i['\u2019]?ll)\s+)?"
                    r"(?:no\s+to|(?:hard\s+)?pass\s+on)\s+"
                    r"(?P<echo>[^\W\d][^.!?\n,]{0,40}?)(?=[.!]|\s*$|\s+[^\w\s])[.!]*", re.IGNORECASE | re.MULTILINE)


# ... and one said with "no" before or after it, as texting turns it down ("nah no life360.", "Toast no mija, they
# charge you the percentage", "Ay no chica, vinegar no, that tastes like the devil"); only what echoes the
# suggestion just made counts ("no worries", "no problem" echo nothing).
_ADDRESSED = r"(?:\s+(?:chica|mija|mijo|man|bro|sis|girl|mate|manita|manito|hermano|hermana|amiga|amigo|dude|fam))?"
_NO_ECHO = re.compile(r"(?:^|(?<=[.!?]\s))(?:(?:nah|nope|naw)[,.!]*\s+)?no\s+(?P<echo>[^\W\d][^.!?\n,]{0,30}?)" + _ADDRESSED
                      + r"(?=[.!,]|\s*$)[.!]*", re.IGNORECASE | re.MULTILINE)
# (after the name, whatever word the visitor calls the listener by, before a comma: "Kuruluş Osman 😅 no yisha, 6
# seasons"; not "no problem", "no worries", "no rush", which turn nothing down)
_ECHO_NO = re.compile(r"(?:^|(?<=[.!?,]\s))(?P<echo>[^\W\d][^.!?\n,]{0,30}?)\s+no(?:" + _ADDRESSED + r"(?=[.!,]|\s*$)"
                      r"|\s+(?!(?:problem|problems|prob|probs|worries|worry|rush|stress|drama|doubt|matter|need|more|longer|kidding"
                      r"|joke|wonder|idea|one|way|time)\b)(?-i:[a-z]{2,8})(?=,))[.!]*",
                      re.IGNORECASE | re.MULTILINE)


# ... and the name asked back alone, a sentence of why, and then the verdict ("Zwift?? riding in an attic looking to a
# screen. no thank you", "Kombucha? tastes like vinegar. not for me").
_ECHO_WHY_NO = re.compile(r"(?:^|(?<=[.!?]\s))(?P<echo>[^\W\d][^.!?\n]{1,30}?)\?+\s+(?P<why>[^.!?\n]{3,100}[.!]+\s+)"
                          r"(?:no\s+thank\s+you|no\s+thanks|not\s+for\s+(?:me|us)|nope|pass)\b[.!]*(?=\s*$|\s+[^\w\s])",
                          re.IGNORECASE | re.MULTILINE)


def _refused(text: str, heard: frozenset[str]) -> str:
    """``text`` with a suggestion turned down by its echo and "no" (``_ECHO_THEN_NO``, ``_ECHO_NO``), by "no" and its
    echo (``_NO_ECHO``), or by "no to" it (``_NO_TO``), told as one refusal. ``heard``: the content words of what the other party just said."""

    def refusal(m: re.Match[str]) -> str:
        echo = m["echo"].strip()
        said = set(_content(echo))
        if (len(echo.split()) > 6 or not said or len(said & heard) * 2 < len(said)  # (mostly the other party's words, and no verb)
                or re.search(r"\b(?:is|are|was|were|has|have|had|got|did|does|said|says)\b|[,;:]", echo, re.IGNORECASE)
                or re.match(r"(?:tell|ask|say|let)\b", echo, re.IGNORECASE)  # (word passed on: "tell Totò no shame, we're family")
                or (m.re is _ECHO_THEN_NO and len(echo.split()) > 2 and not re.search(r"[.?]", m[0][m.end("echo") - m.start():]))):
            # (with no mark between them, the echo is a word or two: "Karela no way")
            return m[0]
        echo = re.sub(r"^(?:an?|the)\s+", "", echo, flags=re.IGNORECASE)
        end = "" if m.string[m.end():].startswith(",") else "."  # ("vinegar no, that tastes like the devil")
        return f"No {echo} for me. {m['why'].strip()}" if m.re is _ECHO_WHY_NO else f"No {echo} for me{end}"
    text = _NO_TO.sub(refusal, _ECHO_THEN_NO.sub(refusal, _ECHO_WHY_NO.sub(refusal, text)))
    return _ECHO_NO.sub(refusal, _NO_ECHO.sub(refusal, text))


# In Korean, a suggestion named alone and then passed on in the sentence after it ("석세션.. 줄거리만 들어도
# 피곤하다 ㅎㅎ ... 패스할게"): the name is the topic of the pass.
_KO_ECHO_THEN_PASS = re.compile(r"^(?P<echo>[가-힣A-Za-z0-9][가-힣A-Za-z0-9 ]{0,20}?)(?:\.{1,3}|[?!]+|~+)\s+(?=[^\n]*패[스쓰])", re.MULTILINE)


def _passed_on(text: str, heard: frozenset[str]) -> str:
    """``text`` with a Korean suggestion named alone before it is passed on (``_KO_ECHO_THEN_PASS``) made the topic
    of the pass, before the name alone is taken for whom they speak to ("석세션.. ... 패스할게": "석세션은 ...")."""
    def topic(m: re.Match[str]) -> str:
        echo = m["echo"].strip()
        said = set(_content(echo))
        closed = "가" <= echo[-1] <= "힣" and _closed(echo[-1])
        return f"{echo}{'은' if closed else '는'} " if said and said <= heard and len(echo.split()) <= 3 else m[0]
    return _KO_ECHO_THEN_PASS.sub(topic, text)


def _of_theirs_only(previous: str, known: set[str]) -> bool:
    """Whether the other party's ``previous`` spoke of one of the visitor's people or pets by name (``known``,
    case folded) and of nothing of their own ("ㅋㅋㅋㅋㅋ 보리 대범하다", "Poor Pemberton!"): whom the visitor
    names in reply is of their world too."""
    korean = bool(re.search(r"[가-힣]", previous))
    names = {n for n in known if len(n) > 1 and n in previous} if korean else _names_in(previous) & known
    return bool(names) and not (_KO_ASKER_OWN.search(previous) if korean else _ASKER_OWN.search(previous))


def extract(text: str, said_at: datetime | None = None, previous: str | None = None,
            theirs: Collection[str] = (), called: Collection[str] = ()) -> list[FactCandidate]:
    """Candidate facts the visitor states about themselves in ``text`` (possibly none), slot facts
    first. ``said_at`` resolves relative time ("yesterday") and dates what they told. ``previous``:
    what the other party said just before, read only for the question about the visitor it may end
    with (``asked_of_them``); nothing else of it is ever taken as the visitor's. ``theirs``: the
    names of the people and pets in their life already known (their slot facts); news of one of
    them, of one this message introduces ("my sister Harriet") or of one the other party just asked
    after ("How's Jack going?", ``asked_after``), is part of their world. ``called``: the names they
    call whom they text (``agent.name``, learnt from a greeting, ``_called``): an address, no news."""
    text = fact_dates.dialect_days(_MAN_I.sub(_man_as_i, _AH_I.sub("I", _HIM.sub(r"\1him", _plain_speech(_unshouted(text))))))
    addressee = _called(text, previous)
    addresses = {*called, addressee.value} if addressee else set(called)
    heard = frozenset(_content(previous or ""))  # (what the other party just said, in content words)
    text = _refused(_without_address(_passed_on(text, heard), previous, addresses), heard)
    told_of = _their_names(previous, text)  # whom the other party just told news of: theirs
    # ... and whom they ask after, with a question mark or, in Korean, by its ending ("수진이는 병원 일 힘들지 않대냐")
    known = {n.casefold() for n in theirs} | ((asked_after(previous or "") | asked_after(" ".join(_questions(previous)))) - told_of)
    if asks_after_household(previous or "") or _of_theirs_only(previous or "", known):  # ("How are the kids?" - "Mason has his
        # speech eval Thursday", "nasra has a game friday"; "보리 대범하다" - "동훈 씨가 다음 날 잠금장치 사 옴")
        known |= (_names_in(text) | _small_subjects(text) | {m.group(1) for m in _KO_HONORED.finditer(text)}) - told_of
    found: list[FactCandidate | None] = [_name(text), _home(text), addressee]
    email = _first(_EMAIL_PATTERNS, text)
    if email:
        found.append(FactCandidate(key="contact.email", value=email.lower(), statement=f"Email address: {email}"))
    phone = _first(_PHONE_PATTERNS, text)
    if phone and sum(c.isdigit() for c in phone) >= 7:
        found.append(FactCandidate(key="contact.phone", value=re.sub(r"[^\d+]", "", phone), statement=f"Phone number: {phone}"))
    language = _first(_LANGUAGE_PATTERNS, text)
    if language:
        name = _LANGUAGES[language.casefold()]
        found.append(FactCandidate(key="language", value=name, statement=f"Prefers to be answered in {name}"))
    others = told_of - known
    found.extend(_likes(text, others))
    found.extend(_slot_people(text))
    found.extend(_slot_work(text))
    covered = {t for c in found if c is not None for t in relevance.words(f"{c.statement} {c.value}")}
    names = frozenset(known | their_names(c for c in found if c is not None))
    found.extend(_told(text, said_at, covered, asked_of_them(previous, names), names, heard,
                       _their_news(previous), others - names, _suggested(previous),
                       [line for line in text.split("\n") if _plain_news(line, addresses)],
                       # (opening the conversation, or after a remark of no one, asking nothing, and naming neither the other
                       # party nor what they call them: "Tuna got a new boat", "Mina has been to Lisbon, did you see her photos?")
                       (not (previous or "").strip() or _of_no_one(previous or "")) and not _asks_or_names_them(text, addresses),
                       _asked_how_it_went(previous or "")))
    seen: set[str] = set()
    out = []
    for c in found:
        if c is not None and c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return sorted(out, key=lambda c: priority(c.key))
