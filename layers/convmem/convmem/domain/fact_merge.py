"""Durable facts: slot keys, the merge rules, capacity, and recall by relevance. Pure.

A slot fact has one current value (``name``, ``home.location``, ``preference.green_tea``,
``work.role``). A new candidate for a slot either restates the current value (only
``updated_at`` moves), rewords it (the richer wording wins, no history), or replaces it (the old
value goes to the history with the time it stopped being true). Order is decided by when the
visitor said it, not by when the job ran, so a late or duplicate job never turns back a newer value.

What the visitor told (``event.*``, ``note.*``) is many facts, not one slot: a candidate that
nearly restates a kept one merges into it (a new date makes it an update, with history);
anything else is a fact of its own.

Capacity: when the set is full, the oldest told facts are compacted into one coarser ``digest``
fact per month they were said in, so what is new gets in and what is old stays recallable in
fewer words. Who they are and how to reach them is never compacted.
"""

from __future__ import annotations

import calendar
import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Literal

from convmem.domain import fact_dates, relevance, vectors
from convmem.domain.models import Fact, FactCandidate, FactSource, FactVersion
from convmem.domain.quoting import quote
from convmem.domain.tokens import count_tokens

_ALIASES = {
    "full_name": "name", "first_name": "name", "nickname": "name",
    "location": "home.location", "home": "home.location", "city": "home.location", "residence": "home.location",
    "address": "home.location",
    "email": "contact.email", "e_mail": "contact.email", "email_address": "contact.email",
    "phone": "contact.phone", "telephone": "contact.phone", "mobile": "contact.phone", "phone_number": "contact.phone",
    "lang": "language", "preferred_language": "language",
}
_KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[^\W_][\w]*)*$")
# Words a slot stands for, so a lexical scorer can match "where do I live?" with "Lives in Busan".
_SLOT_WORDS = {
    "name": "name called call 이름",
    "home": "home live where city town address 사는 살아 집 어디 동네",
    "location": "location located weather near local 날씨 근처",
    "contact": "contact reach 연락",
    "email": "email mail 이메일 메일",
    "phone": "phone number call text mobile 전화 번호",
    "language": "language speak reply write 언어 말",
    "preference": "prefer favourite favorite 좋아",
    "work": "work job career employer 일 직장 회사",
    "study": "study school university degree 공부 학교",
    "family": "family 가족",
    # (a relation's slot, by the word that asks for all of them: "What are the names of my parents?")
    **dict.fromkeys(("mother", "mum", "mom", "father", "dad"), "parent"),
    **dict.fromkeys(("son", "daughter"), "child children kid"),
    **dict.fromkeys(("sister", "brother"), "sibling"),
    **dict.fromkeys(("wife", "husband"), "spouse partner married"),
    "pet": "pet 반려",
    "age": "age old 나이",
}
# What a question names by its kind ("What pets...?", "any health problems?", "가족") seldom is
# what a fact says ("their tortoise Pemberton", "torn calf muscle", "엄마랑"): a told fact naming a
# member of a kind is also found by the kind's words (each key: the words a question uses). The
# kinds are those of what people tell (family, pets, homes, work, health, hobbies, sport, cars,
# trips, food, purchases, relationships); members are common English and Korean words (a Hangul
# noun also with a particle after it; a Hangul stem, written with a dash, in any form or compound).
_KINDS = {
    "pet animal 반려동물 동물": (
        "pet dog puppy cat kitten bird parrot budgie canary hamster gerbil rabbit bunny guinea turtle tortoise "
        "fish goldfish horse pony donkey snake lizard gecko iguana hen chicken duck goat sheep pig ferret rat mouse "
        "강아지 고양이 토끼 햄스터 거북이 앵무새 물고기 금붕어 닭 반려견 반려묘 도마뱀 게코 뱀 고슴도치 페럿"),
    # A breed is a dog or a cat ("Pudding, our dachshund"; "시바견인데"); words that also mean
    # something else (lab, boxer, golden, persian) are left out.
    "dog breed pet 강아지 개 반려견 견종 반려동물": (
        "dachshund labrador retriever poodle labradoodle goldendoodle cockapoo cavapoo spaniel terrier collie sheepdog "
        "greyhound whippet lurcher beagle husky malamute shiba akita corgi pug bulldog frenchie rottweiler doberman "
        "chihuahua pomeranian schnauzer dalmatian weimaraner vizsla mastiff samoyed jindo "
        "시바견- 진돗개- 리트리버- 푸들- 말티즈- 포메라니안- 비숑- 치와와- 웰시코기- 닥스훈트- 슈나우저- 시츄- 비글- 허스키- "
        "보더콜리- 래브라도- 사모예드- 믹스견-"),
    "cat breed pet 고양이 반려묘 묘종 반려동물": (
        "ragdoll sphynx siamese abyssinian tabby calico shorthair longhair "
        "코숏- 코리안숏헤어- 러시안블루- 랙돌- 먼치킨- 스코티시폴드- 브리티시숏헤어- 치즈냥- 삼색이-"),
    # Where they live, in Korean's many forms of 살다 ("수원 본가 살거든" for "살았던 곳은?"), and where
    # they moved ("Moved into a flat above the chippy" for "Where have I lived?").
    "home live neighbourhood neighborhood 집 사는 곳 살았 살던 거주 동네": (
        "moved moving apartment flat house rent rented lease landlord landlady flatmate roommate housemate "
        "살아- 살았- 살고- 살거- 살던- 살면서- 전세- 월세- 자취- 오피스텔- 본가- 원룸- 이사- 우리집- 집주인- 아파트-"),
    "family relatives siblings children kids 가족 형제자매 형제 자매 남매 자녀 자식": (
        "family mum mom mother dad father parent sister brother sibling son daughter kid child children baby "
        "wife husband partner grandma grandmother grandpa grandfather granddad gran nan aunt uncle cousin niece "
        "nephew twin stepmother stepfather grandson granddaughter grandchild grandchildren grandkid grandkids "
        "stepson stepdaughter stepmum stepmom stepdad son-in-law daughter-in-law mother-in-law father-in-law "
        "brother-in-law sister-in-law in-laws godson goddaughter grandparents granny "
        "손주 사위 며느리 막내 장모 장인 시댁 친정 처제 형부 올케 매형 새언니 시누이 외삼촌 "
        "손자 손녀 엄마 아빠 어머니 아버지 부모님 언니 오빠 누나 형 동생 남동생 여동생 아들 딸 아내 집사람 남편 할머니 할아버지 이모 고모 삼촌 조카 사촌 쌍둥이"),
    # What only an animal has ("take him to the vet", "동물병원 데려갔어"): a pet, dog or cat.
    "pet animal dog cat 반려동물 동물 강아지 고양이": (
        "vet vets veterinarian veterinary kennel kennels leash 동물병원- 사료 애견- 중성화-"),
    "parent parents 부모 부모님": (
        "mum mom mam mother dad father 엄마 아빠 어머니 아버지 어머님 아버님"),  # (친정엄마, 시아버지: by their head)
    "health medication medical condition injury injuries treatment 건강 약 부상 다쳤 아팠 병원 치료": (  # ("어디를 다쳤나요?": its root)
        "health doctor hospital clinic surgery operation injury injured hurt sick ill illness allergic allergy "
        "intolerant pain physio physiotherapy therapy diagnosed diagnosis medication medicine torn sprained fracture "
        "flu fever asthma diabetes migraine pills tablets prescribed prescription "
        # (what hurts, and how it shows: "plantar fasciitis in their left heel", "stairs are killing their knee")
        "knee ankle wrist heel hip shoulder elbow spine stitches cast crutches limp limping hobbling sore ache aching "
        "swollen scan x-ray mri ecg bruised broke broken "
        "insomnia depression anxiety anemia anaemia dizzy dizziness vertigo cholesterol "
        "약 병원 의사 수술 부상 다쳤- 아파- 아프- 알레르기 진단 감기 몸살 허리 무릎 발목 손목 어깨 깁스 통증 염증 "
        "불면증 우울증 공황장애 위염 장염 비염 식도염 건초염 관절염 디스크 골절 빈혈 어지럼증 두통 편두통 당뇨 고혈압 혈압 "
        "콜레스테롤 지방간 결절 검진 건강검진 재검 피검사 한의원 도수치료 물리치료 입원 퇴원 "
        # (a clinic by its department, head-final: 튼튼정형외과, 밝은눈안과, 연세이비인후과)
        "외과 내과 안과 치과 피부과 이비인후과 비뇨기과 산부인과 소아과 신경과 정신과 의원 클리닉 "
        # (what is done for it, and the medicines most prescribed, by name: "Doctor gave them antibiotics and
        # steroids", "started on amlodipine")
        "antibiotics antibiotic steroids steroid inhaler injection cortisone stent angioplasty angiogram biopsy rehab "
        "chemo chemotherapy radiotherapy dialysis insulin statin statins metformin lisinopril amlodipine ramipril "
        "atorvastatin simvastatin omeprazole ibuprofen naproxen paracetamol tylenol advil aspirin warfarin levothyroxine "
        "prednisone sertraline 주사 항생제 스테로이드 내시경 위내시경 대장내시경 조직검사 재활 인슐린"),
    "job work career company employer 직업 일 아르바이트 회사 직장": (
        "job work career hired promoted promotion boss colleague coworker office shift salary interview resigned "
        "quit fired employer company manager trainee apprentice startup "
        "회사 직장 알바 아르바이트 연봉 직급 팀장 과장 부장 대리 스타트업 취업- 이직- 승진- 퇴사- 면접- 출근- 입사- 창업-"),
    "hobby hobbies activity 취미": (
        "painting drawing sketching pottery ceramics sculpting knitting sewing crochet quilting gardening baking "
        "reading photography hiking camping climbing bouldering running jogging cycling biking swimming diving "
        "surfing skiing snowboarding skating yoga pilates dancing singing choir guitar piano violin cello drums "
        "ukulele chess gaming fishing kayaking sailing horseback tennis football soccer basketball volleyball golf "
        "marathon triathlon birdwatching astronomy hockey softball baseball cricket rugby netball lacrosse darts curling "
        "그림 도예 도자기 뜨개질 베이킹 독서 사진 등산 캠핑 클라이밍 "
        "달리기 러닝 마라톤 자전거 수영 요가 필라테스 춤 노래 기타 피아노 바이올린 드럼 낚시 테니스 축구 농구 골프"),
    "exercise sport sports workout fitness 운동 스포츠": (
        "exercise exercising workout gym fitness running jogging swimming yoga pilates cycling spin hiking climbing "
        "bouldering tennis golf football soccer basketball volleyball badminton boxing crossfit weights marathon "
        "triathlon rowing hockey softball baseball cricket rugby netball lacrosse futsal "
        "헬스 피티 pt 필라테스 요가 수영 러닝 달리기 조깅 줄넘기 등산 자전거 걷기 산책 테니스 골프 야구 풋살 "
        "축구 농구 배구 배드민턴 탁구 클라이밍 크로스핏 마라톤 복싱 스트레칭 홈트 수영장- 헬스장-"),
    # Cars by kind, make or model ("차는 스포티지로 바꿈" for "무슨 차?"); names that also mean
    # something else (모닝, 레이, beetle, mini) are left out.
    "car vehicle drive 차 자동차 차량 트럭 화물차 짐차 승합차": (
        "car cars suv sedan hatchback minivan van truck pickup jeep convertible tesla toyota honda ford hyundai "
        "kia subaru nissan mazda volkswagen bmw audi volvo lexus chevy chevrolet civic corolla camry prius crosstrek "
        "outback rav4 astra corsa fiesta octavia qashqai juke mondeo zafira passat tiguan yaris micra clio megane kuga "
        "explorer equinox taurus silverado f150 f-150 f-250 tacoma tundra wrangler accord altima sentra ioniq "
        "peterbilt kenworth freightliner "
        "자동차 차량 중고차 새차 경차 전기차 폐차 세단 suv 아반떼 쏘나타 그랜저 스포티지 쏘렌토 투싼 싼타페 팰리세이드 "
        "캐스퍼 카니발 제네시스 테슬라 니로 코나 셀토스 티볼리 스타리아 벤츠 아우디 볼보 렉서스 도요타 혼다 현대차 기아차 "
        "아이오닉 모하비 트랙스 말리부 포터 봉고 스타렉스 트럭 화물차 승합차"),
    "trip travel holiday vacation 여행 휴가 여행지": (
        "trip travel travelling traveling holiday vacation flight flights flew hotel airbnb resort hostel cruise abroad "
        "passport sightseeing 여행- 휴가- 항공권- 비행기- 비행기표- 펜션- 리조트- 숙소- 호텔- 에어비앤비- 해외- 관광-"),
    # ... and one's coming by its landing ("She lands at Heathrow on Saturday" for "When did she arrive?")
    "arrive arrived arrival 도착": (
        "land lands landed landing flew flies flight touched arrives arriving 착륙- 입국-"),
    "food eat 음식": (
        "food eat meal dinner lunch breakfast snack restaurant vegetarian vegan soup curry pizza pasta ramen sushi "
        "noodles salad cheese olives chocolate coffee tea milk cake dessert 음식 먹- 밥 식당 커피 라면 맛집 디저트"),
    "bought buy purchase 산 샀 구매 물건": (
        "bought purchased ordered 샀- 사줬- 구매 구입 주문 중고로 계약-"),  # ("EV3 계약함": a car or a flat signed for)
    "relationship single married dating 연애 결혼 싱글": (
        "single married marriage divorced engaged dating boyfriend girlfriend fiance fiancee wedding anniversary "
        "breakup 결혼 연애 남자친구 여자친구 남친 여친 이혼 약혼"),
}
_KO_PARTICLES = ("은", "는", "이", "가", "을", "를", "에", "의", "도", "만", "랑", "이랑", "과", "와", "하고", "한테", "에게", "네",
                 # (and the copula: "호떡이는 레오파드 게코라", "진돗개야", "말티즈인데")
                 "라", "이라", "야", "이야", "예요", "이에요", "인데", "라서", "이라서", "였", "이었")


def _kind_words(shortest: int = 1) -> dict[str, list[str]]:
    """Each member word of at least ``shortest`` letters (stemmed; a Hangul noun also with each
    particle) and its kinds: a word may be a member of more than one (swimming is a hobby and a sport)."""
    out: dict[str, list[str]] = {}
    for kind, members in _KINDS.items():
        for w in members.split():
            if not w.endswith("-") and len(w) >= shortest:
                for form in [relevance.stem(w)] if w.isascii() else [w + p for p in ("", *_KO_PARTICLES)]:
                    out.setdefault(form, []).append(kind)
    return out


_KIND_WORDS = _kind_words()
_KIND_STEMS = tuple((w[:-1], kind) for kind, members in _KINDS.items() for w in members.split() if w.endswith("-"))
# Heads of one syllable (차, 약, 형) end too many other words to count (계약, 성형).
_KIND_HEADS = _kind_words(shortest=2)
_HANGUL_3 = re.compile(r"^[가-힣]{3,}$")


def _compound_kinds(word: str) -> list[str]:
    """The kinds of a Korean compound by its head, the member of two syllables or more it ends with
    (큰아들, 친정엄마, 가족여행을, 직원헬스장): Korean compounds are head-final."""
    if _HANGUL_3.match(word):
        for i in range(1, len(word) - 1):
            if word[i:] in _KIND_HEADS:
                return _KIND_HEADS[word[i:]]
    return []


def _kinds(statement: str) -> list[str]:
    """The kinds (``_KINDS``) a statement names a member of."""
    found: list[str] = []
    for w in relevance.words(statement):
        members = _KIND_WORDS.get(w) or _compound_kinds(w)
        for kind in (*members, *(k for stem, k in _KIND_STEMS if w.startswith(stem))):
            if kind not in found:
                found.append(kind)
    return found


# Two statements in different slots are one fact only when they nearly coincide.
CROSS_SLOT_THRESHOLD = 0.8
# Slots worth sending on every turn even when the message does not mention them.
# What the visitor calls the agent ("Calls you Morag"): learnt from a greeting, an address elsewhere.
AGENT_NAME = "agent.name"
STANDING_KEYS = ("name", "language", AGENT_NAME)
# Families of things told: many facts each, merged by what they say, not by slot.
TOLD = ("event", "note")
DIGEST = "digest"
# Who they are and how to reach them: first in when a message holds more than a job keeps, and
# never compacted.
PRIORITY = ("name", "contact.", "home.", "language", "agent.", "age", "work.", "study.", "family.", "pet.", "people.",
            "preference.", "event.", "note.", "digest.")
KEPT_WHOLE = 4
# A digest of compacted facts stays readable in one request.
DIGEST_MAX_CHARS = 1200
DIGEST_PART_WORDS = 14
# Other messages remembered as having said a value (``Fact.earlier``): what forgetting replays.
EARLIER_MAX = 10

Action = Literal["created", "updated", "confirmed", "reworded", "history", "duplicate", "full"]


def priority(key: str) -> int:
    """Rank of a slot key: identity and contact first, what they told last."""
    return next((i for i, p in enumerate(PRIORITY) if key == p or (p.endswith(".") and key.startswith(p))), len(PRIORITY))


def normalise_key(raw: str) -> str:
    """The canonical slot key: lower case, ``_`` between words, known aliases mapped, English
    topic words stemmed. Raises ValueError for something that is not a slot key."""
    parts = [re.sub(r"[\W_]+", "_", p.strip().casefold()).strip("_") for p in raw.split(".")]
    parts = [p for p in parts if p]
    if not parts:
        raise ValueError(f"not a fact key: {raw!r}")
    joined = ".".join(parts)
    joined = _ALIASES.get(joined, joined)
    head, *rest = joined.split(".")
    head = _ALIASES.get(head, head) if not rest else head
    if head == "preference" and rest:
        rest = ["_".join(_singular(w) for w in "_".join(rest).split("_") if w)]
    key = ".".join([head, *rest])
    if not _KEY.match(key) or len(key) > 80:
        raise ValueError(f"not a fact key: {raw!r}")
    return key


def _singular(word: str) -> str:
    """seats -> seat, teas -> tea; glass stays glass."""
    if word.isascii() and word.isalpha() and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _norm(value: str) -> str:
    return " ".join(re.sub(r"[^\w@+.-]+", " ", value.casefold()).split())


@lru_cache(maxsize=16384)
def _term_set(text: str) -> frozenset[str]:
    return frozenset(relevance.terms(text))


def similarity(a: str, b: str) -> float:
    """Jaccard overlap of the two texts' stemmed terms (1.0 for equal, 0.0 for nothing shared)."""
    ta, tb = _term_set(a), _term_set(b)
    if not ta or not tb:
        return 1.0 if _norm(a) == _norm(b) else 0.0
    return len(ta & tb) / len(ta | tb)


@dataclass(frozen=True)
class MergeResult:
    facts: list[Fact]
    action: Action
    fact_id: str | None = None
    compacted: int = 0
    """Facts folded into digests to make room for this one."""

    @property
    def changed(self) -> bool:
        return self.action not in ("duplicate", "full")


def _polarity(value: str) -> str:
    return value[0] if value[:1] in ("+", "-") else ""


def _said_here(fact: Fact, source: FactSource) -> bool:
    same = (source.session_id, source.seq)
    versions = [*fact.earlier, *fact.history, *(e for v in fact.history for e in v.earlier)]
    seen = [fact.source, fact.confirmed_by, *(v.source for v in versions)]
    return any(s is not None and (s.session_id, s.seq) == same for s in seen)


def merge(
    facts: Sequence[Fact],
    candidate: FactCandidate,
    source: FactSource,
    *,
    now: datetime,
    new_id: Callable[[], str],
    threshold: float = 0.6,
    max_facts: int = 500,
    max_history: int = 20,
) -> MergeResult:
    """Fold one candidate into the user's facts; never two current facts in one slot. When the
    set holds ``max_facts``, the oldest told facts are compacted first (``compacted``); "full"
    only when nothing is left to compact."""
    key = normalise_key(candidate.key)
    out = list(facts)
    family = key.split(".", 1)[0]
    if family in TOLD:
        index = _same_told(out, candidate.value, threshold)
        if index is not None and _another_time(out[index], candidate, source):
            index = None
        if index is None:
            key = _free_key(out, key)
    else:
        index = next((i for i, f in enumerate(out) if f.key == key), None)
    if index is None and "." in key and family not in TOLD:
        # The same fact under another wording of its slot ("preference.coffee" / "preference.drinks"
        # both "Likes coffee"): it merges into the slot that already holds it.
        # Stricter than within a slot: "Likes strong black coffee" and "... tea" share 3 of 5 terms.
        strict = max(threshold, CROSS_SLOT_THRESHOLD)
        index = next(
            (i for i, f in enumerate(out)
             if f.key.startswith(family + ".") and similarity(candidate.statement, f.statement) >= strict),
            None,
        )
    if index is None:
        compacted = 0
        while len(out) >= max_facts:
            out, folded = compact(out, now=now, new_id=new_id, max_facts=max_facts)
            if not folded:
                return MergeResult(list(facts), "full")
            compacted += folded
        fact = Fact(
            id=new_id(), key=key, statement=candidate.statement, value=candidate.value,
            source=source, created_at=now, updated_at=now, when=candidate.when, context=candidate.context,
        )
        return MergeResult([*out, fact], "created", fact.id, compacted)

    fact = out[index]
    if _said_here(fact, source):
        return MergeResult(out, "duplicate", fact.id)  # the same job again, or a redelivery
    # Polarity ("+coffee" / "-coffee") must agree before wordings are compared.
    same_polarity = _polarity(candidate.value) == _polarity(fact.value)
    close = same_polarity and (
        _norm(candidate.value) == _norm(fact.value) or similarity(candidate.value, fact.value) >= threshold
    )
    richer = same_polarity and set(relevance.terms(candidate.value)) > set(relevance.terms(fact.value))
    said = FactVersion(statement=candidate.statement, value=candidate.value, source=source, replaced_at=source.at,
                       when=candidate.when, context=candidate.context)
    if source.at < fact.source.at:
        # Said before the current value: it can only be part of the history.
        if any(_norm(v.value) == _norm(candidate.value) and v.source.at == source.at for v in fact.history):
            return MergeResult(out, "duplicate", fact.id)
        if close:  # the current value, said earlier too: remembered as one more of its sources
            earlier = sorted([*fact.earlier, said], key=lambda v: v.source.at)[-EARLIER_MAX:]
            out[index] = fact.model_copy(update={"earlier": earlier, "updated_at": now})
            return MergeResult(out, "confirmed", fact.id)
        later = min([v.source.at for v in fact.history if v.source.at > source.at] + [fact.source.at])
        version = FactVersion(statement=candidate.statement, value=candidate.value, source=source, replaced_at=later,
                              when=candidate.when, context=candidate.context)
        history = sorted([*fact.history, version], key=lambda v: v.source.at)[-max_history:]
        out[index] = fact.model_copy(update={"history": history, "updated_at": now})
        return MergeResult(out, "history", fact.id)
    if richer and candidate.when in (None, fact.when):  # the same fact in a fuller wording ("Minji" -> "Minji Kim")
        worded = FactVersion(statement=fact.statement, value=fact.value, source=fact.source, replaced_at=source.at, when=fact.when,
                             context=fact.context)
        out[index] = fact.model_copy(update={
            "statement": candidate.statement, "value": candidate.value, "context": candidate.context, "source": source,
            "updated_at": now, "embedding": None, "earlier": [*fact.earlier, worded][-EARLIER_MAX:],
            "when_from": (fact.when_from or fact.source) if fact.when and candidate.when is None else None})
        return MergeResult(out, "reworded", fact.id)
    if close and candidate.when in (None, fact.when):
        out[index] = fact.model_copy(update={
            "confirmed_by": source, "updated_at": now, "earlier": [*fact.earlier, said][-EARLIER_MAX:]})
        return MergeResult(out, "confirmed", fact.id)
    old = FactVersion(statement=fact.statement, value=fact.value, source=fact.source, replaced_at=source.at,
                      when=fact.when, when_from=fact.when_from, earlier=fact.earlier, context=fact.context)
    out[index] = fact.model_copy(update={
        "statement": candidate.statement, "value": candidate.value, "context": candidate.context, "source": source,
        "confirmed_by": None, "updated_at": now, "history": [*fact.history, old][-max_history:], "embedding": None,
        "when": candidate.when, "earlier": [], "when_from": None,
    })
    return MergeResult(out, "updated", fact.id)


def merge_all(
    facts: Sequence[Fact],
    learnt: Sequence[tuple[FactCandidate, FactSource]],
    *,
    now: datetime,
    new_id: Callable[[], str],
    threshold: float = 0.6,
    max_facts: int = 500,
    max_history: int = 20,
    per_message: int = 8,
) -> tuple[list[Fact], list[str]]:
    """Merge what a job learnt, message by message: at most ``per_message`` candidates of one
    message (the highest ``priority`` first: a long message cannot crowd out the store), each
    through ``merge``. Returns the facts and one action per candidate ("dropped" beyond the
    bound, "invalid" for a key that is not a slot key, "compacted:<n>" when room was made)."""
    out = list(facts)
    actions: list[str] = []
    by_message: dict[tuple[str, int], list[tuple[FactCandidate, FactSource]]] = {}
    for candidate, source in learnt:
        by_message.setdefault((source.session_id, source.seq), []).append((candidate, source))
    for group in by_message.values():
        ranked = sorted(group, key=lambda cs: priority(cs[0].key))
        actions.extend("dropped" for _ in ranked[per_message:])
        for candidate, source in ranked[:per_message]:
            try:
                result = merge(out, candidate, source, now=now, new_id=new_id, threshold=threshold,
                               max_facts=max_facts, max_history=max_history)
            except ValueError:
                actions.append("invalid")
                continue
            out = result.facts
            actions.append(result.action)
            if result.compacted:
                actions.append(f"compacted:{result.compacted}")
    return out, actions


def _another_time(fact: Fact, candidate: FactCandidate, source: FactSource) -> bool:
    """Whether a told candidate that nearly restates a kept fact tells another thing that happened, not
    a change of when: both dated, to different times, the kept one already past when this was said,
    and each saying something the other does not ("보건의료원 가서 독감주사 맞았다" in October after
    "보건의료원 가서 어깨 주사 한대 맞았다" in January). The same thing again ("went to the dentist
    yesterday", a month on) is one recurring fact, its earlier day in the history; a day moved before
    it came ("the dentist is the 12th now") an update."""
    if not (fact.when and candidate.when) or fact.when == candidate.when or source.at < fact.source.at:
        return False
    kept, told = set(relevance.terms(fact.value)), set(relevance.terms(candidate.value))
    return bool(kept - told) and bool(told - kept) and fact_dates.when_span(fact.when)[1] < source.at.date()


def _same_told(facts: Sequence[Fact], value: str, threshold: float) -> int | None:
    """The told fact that (nearly) says the same, if any: the closest one."""
    best, best_score = None, threshold
    for i, f in enumerate(facts):
        if f.key.split(".", 1)[0] in TOLD:
            score = similarity(value, f.value)
            if score >= best_score:
                best, best_score = i, score
    return best


def _free_key(facts: Sequence[Fact], key: str) -> str:
    """``key``, or ``key_2``, ``key_3``... when another told fact holds it."""
    taken = {f.key for f in facts}
    if key not in taken:
        return key
    n = 2
    while f"{key}_{n}" in taken:
        n += 1
    return f"{key}_{n}"


_SAID = re.compile(r"\s*\((?:said [^)]*|[^)]*에 말함)\)$")


def _without_said(statement: str) -> str:
    """The statement without the note of when it was said ("(said 8 May 2023)")."""
    return _SAID.sub("", statement)


# The note extraction writes (fact_extraction: "(said 8 May 2023)", "(2023-05-08에 말함)"), read back
# strictly: a request shows the day once over all the facts said on it (``said_header``), and what
# it shows is rendered from the date, never copied from a statement.
_SAID_ON = re.compile(r"\s*\((?:said (\d{1,2}) ([A-Z][a-z]+) (\d{4})|(\d{4})-(\d{2})-(\d{2})에 말함)\)$")


def said_on(statement: str) -> tuple[str, date | None]:
    """The statement without its note of when it was said, and that day; the statement as it is
    and None when it ends on no such note."""
    m = _SAID_ON.search(statement)
    if m is None:
        return statement, None
    try:
        if m[1]:
            day = date(int(m[3]), fact_dates.month_number(m[2]), int(m[1]))
        else:
            day = date(int(m[4]), int(m[5]), int(m[6]))
    except ValueError:  # (not a month's name, or no such day)
        return statement, None
    return statement[: m.start()], day


def said_header(day: date) -> str:
    """The line the facts said on ``day`` are listed under in a request."""
    return f"Said on {day.isoformat()}:"


def recalled_cost(statement: str, days: set[date | None]) -> tuple[int, date | None]:
    """Tokens ``statement`` adds to the facts block (``context_assembly.fact_pieces``) beside facts
    said on ``days`` (its line, and the header of its day when it is the first said that day), and
    that day (None when it names none)."""
    text, day = said_on(statement)
    cost = count_tokens(f"\n- {quote(text)}")
    return cost + (count_tokens(f"\n{said_header(day)}") if day is not None and day not in days else 0), day


def _short(statement: str, words: int) -> str:
    text = _without_said(statement).rstrip(" .")
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def compact(facts: Sequence[Fact], *, now: datetime, new_id: Callable[[], str], max_facts: int) -> tuple[list[Fact], int]:
    """Make room for new facts: the oldest compactable facts (told facts first, then stale slots
    other than identity and contact), a twentieth of the cap at a time, fold into ``digest`` facts
    of the month they were said in ("Earlier, in May 2023: ...; ..."), each fact cut to its first
    words, a digest at most DIGEST_MAX_CHARS (``digest.2023_05``, ``digest.2023_05_2``...).
    Returns (facts, how many were folded); nothing is folded when nothing may be."""
    def rank(f: Fact) -> tuple[int, datetime]:
        return (0 if f.key.split(".", 1)[0] in TOLD else 1, f.updated_at)

    movable = sorted((f for f in facts if priority(f.key) >= KEPT_WHOLE and not f.key.startswith(DIGEST + ".")), key=rank)
    if not movable:
        return list(facts), 0
    batch = movable[: max(2, len(facts) - max_facts + 1, max_facts // 20)]
    gone = {f.id for f in batch}
    digests = {f.key: f for f in facts if f.key.startswith(DIGEST + ".")}
    for f in sorted(batch, key=lambda f: f.source.at):
        said = f.source.at
        month = f"{DIGEST}.{said:%Y_%m}"
        part = _short(f.statement, DIGEST_PART_WORDS)
        keys = sorted((k for k in digests if k == month or k.startswith(month + "_")), key=len)
        last = digests[max(keys, key=lambda k: (len(k), k))] if keys else None
        # Only where the part came from (no second copy of its words): forgetting that message drops the digest.
        folded = FactVersion(statement="", value="", source=f.source, replaced_at=now)
        if last is not None and len(last.statement) + 2 + len(part) <= DIGEST_MAX_CHARS:
            statement = f"{last.statement}; {part}"
            digests[last.key] = last.model_copy(update={
                "statement": statement, "value": _digest_value(statement), "updated_at": now, "embedding": None,
                "earlier": [*last.earlier, folded]})
        else:
            key = month if not keys else f"{month}_{len(keys) + 1}"
            statement = f"Earlier, in {fact_dates.month_text(said.year, said.month)}: {part}"
            digests[key] = Fact(id=new_id(), key=key, statement=statement, value=_digest_value(statement), source=f.source,
                                created_at=now, updated_at=now, when=f"{said:%Y-%m}", earlier=[folded])
    kept = [f for f in facts if f.id not in gone and f.key not in digests]
    return [*kept, *digests.values()], len(gone)


def coarsen(facts: Sequence[Fact], *, now: datetime) -> tuple[list[Fact], int]:
    """Fewer bytes when compaction has nothing left to fold: the oldest digest's parts are cut to
    half their words (at least three); parts already that short lose their older half. Returns
    (facts, 1) when a digest changed, (facts, 0) when there is no digest to coarsen."""
    digests = sorted((f for f in facts if f.key.startswith(DIGEST + ".")), key=lambda f: (f.source.at, f.key))
    if not digests:
        return list(facts), 0
    old = digests[0]
    head, _, body = old.statement.partition(": ")
    parts = body.split("; ")
    longest = max(len(p.split()) for p in parts)
    if longest > 3:
        parts = [_short(p, max(3, longest // 2)) for p in parts]
    else:
        parts = parts[len(parts) // 2 :] or parts[-1:]
    statement = f"{head}: {'; '.join(parts)}"
    if statement == old.statement:  # one short part left: the digest itself goes
        return [f for f in facts if f.id != old.id], 1
    new = old.model_copy(update={"statement": statement, "value": _digest_value(statement), "updated_at": now, "embedding": None})
    return [new if f.id == old.id else f for f in facts], 1


def _digest_value(statement: str) -> str:
    return " ".join(dict.fromkeys(relevance.words(statement)))[:300]


_WITH_THEM = re.compile(r"\b(" + relevance.CAPITALISED + r"+) and (?:they|I)\b|\b(?:they|I|(?i:them)) and (" + relevance.CAPITALISED + r"+|[a-z]{3,})\b")
# ... and in Korean, whom they call "our" by name with 씨, or did something with, the two of them ("우리 동수 씨도
# 버스 운전 그만두고", "동수 씨랑 둘이 휴지 한 통을 다 썼어요"): a husband so called, never introduced as 남편.
_KO_OURS = re.compile(r"(?:^|\s)우리\s+([가-힣]{2,3}) 씨|([가-힣]{2,3}) 씨(?:랑|하고|와)\s*둘이")
# Whom the other party asks after, or sends word to ("How's Jack going?", "Did Ella get moved in
# alright", "Tell Leanne congrats"): someone in the visitor's life, though the visitor, talking to
# someone who knows them, never introduced them as "my son Jack". (Not "How was X?": a trip or a
# day, "How was Jeju?", "How was Hogmanay?")
_ASKED_AFTER = re.compile(r"(?:^|(?<=[.!?]\s))(?i:how['\u2019]?s|how\s+(?:is|are|did)|what\s+about|about|and|did|has|is|was|does|tell|give"
                          r"|say\s+(?:hi|hello)\s+to|(?:wait\s+)?who['\u2019]?s|who\s+(?:is|was))\s+(?:(?i:little|old|young|wee)\s+)?(" + relevance.CAPITALISED + r"+)\b"
                          # ... or after how it goes for them ("How's work going for Trevor?", "How are things with Mia?")
                          r"|(?:^|(?<=[.!?]\s))(?i:how)\b[^.!?]{0,40}?\s(?i:for|with)\s+(" + relevance.CAPITALISED + r"+)\s*\?")
# ... and in Korean, by the name opening the question as its topic ("민호는 요즘 출장 안 가니?", "지영이는
# 잘 지내?", "민호 씨는 요즘 어때?"; not "우리 민호는 ...", the asker's own)
_KO_ASKED_AFTER = re.compile(r"(?:^|(?<=[.!?~]\s))([가-힣]{2,4}?)(?:이)?(?:\s?씨)?(?:는|은)\s[^?]*\?")
CALENDAR_WORDS = frozenset({*calendar.day_name, *calendar.month_name} - {""})


# ... or after their household, not by name ("How are the kids?", "How are my grandbabies?", "How's the
# family?"): whom the answer names is theirs.
_ASKED_AFTER_HOUSEHOLD = re.compile(r"\bhow(?:['\u2019]?s|\s+(?:is|are))\s+(?:(?:the|my|your|ur|our|all\s+the)\s+)?"
                                    r"(?:kids|kiddos|children|grandkids|grandchildren|grandbabies|babies|boys|girls|twins|family|fam"
                                    r"|everyone|everybody|little\s+ones)\b", re.IGNORECASE)


def asks_after_household(text: str) -> bool:
    """Whether ``text``, the other party's, asks after the visitor's household as a whole (``_ASKED_AFTER_HOUSEHOLD``)."""
    return bool(_ASKED_AFTER_HOUSEHOLD.search(text))


def asked_after(text: str) -> set[str]:
    """The names (case folded) ``text``, the other party's, asks after or sends word to (``_ASKED_AFTER``);
    not a day, a month or a word of speech ("Is Tuesday ok?", "Did Any of it help?")."""
    return {name.casefold() for m in _ASKED_AFTER.finditer(text) if (name := m.group(1) or m.group(2))
            not in CALENDAR_WORDS and name.lower() not in relevance.STOP_WORDS} | {
        m.group(1) for m in _KO_ASKED_AFTER.finditer(text)}


def their_names(facts: Iterable[Fact | FactCandidate]) -> set[str]:
    """The names (case folded) of the people and pets in their life the facts name: ``family.*``,
    ``people.*`` and ``pet.*`` slots ("Harriet"; a pet's value is "tortoise Pemberton"), whoever
    did something with them ("Fergus and they are moving"), and whoever the other party asked after
    in the question a fact answers ("Asked did Ella get moved in alright: ...", ``asked_after``)."""
    out = set()
    for f in facts:
        family = f.key.split(".", 1)[0]
        if family in ("family", "people", "pet") and f.value.split():
            out.add(f.value.split()[-1].casefold())
        elif family in TOLD:
            out.update(n for m in _WITH_THEM.finditer(f.statement) if (n := (m.group(1) or m.group(2)).casefold())
                       not in relevance.STOP_WORDS and n.capitalize() not in CALENDAR_WORDS)
            out.update(m.group(1) or m.group(2) for m in _KO_OURS.finditer(f.statement))
            asked = _ASKED_FRAME.match(f.statement)
            if asked:
                out |= asked_after(asked.group(1))
    return out


def called(facts: Iterable[Fact | FactCandidate]) -> set[str]:
    """The names the visitor calls whom they text (``AGENT_NAME``), now or before (a fact's history):
    "Mel" and "Melanie" both stay addresses."""
    return {v.value for f in facts if f.key == AGENT_NAME for v in (f, *getattr(f, "history", ()))}


def framed(asked: str, statement: str) -> str:
    """An English answer with the question it answers ("Asked what inspired them: A sunset in
    Busan"), the form ``their_names`` reads back (``_ASKED_FRAME``)."""
    return f"Asked {asked}: {statement}"


_ASKED_FRAME = re.compile(r"Asked ([^:]*):")


def searchable(fact: Fact) -> str:
    """The text a lexical scorer sees for a fact: its statement, the words its slot stands for and,
    for what they told, the kinds of thing it names (``_KINDS``)."""
    return _searchable(fact.key, fact.statement)


@lru_cache(maxsize=16384)
def _searchable(key: str, statement: str) -> str:
    words = [_SLOT_WORDS.get(part, "") for part in key.split(".")]
    topic = key.split(".", 1)[1].replace("_", " ").replace(".", " ") if "." in key else ""
    kinds = _kinds(statement) if key.split(".", 1)[0] in (*TOLD, DIGEST) else []
    return " ".join([statement, topic, *words, *kinds])


def embedding_scores(facts: Sequence[Fact], query_vector: Sequence[float] | None, floor: float) -> list[float] | None:
    """Cosine similarity of each fact to the message, less ``floor`` (so unrelated facts score 0);
    None when the message or any fact has no embedding (then the lexical scorer decides)."""
    if query_vector is None or not facts or any(f.embedding is None for f in facts):
        return None
    return [max(0.0, vectors.cosine(query_vector, vectors.dequantize(f.embedding or "")) - floor) for f in facts]


_ASKS_WHEN = re.compile(
    r"\b(?:when|what (?:date|day|time|year|month)|how long ago|last time|first time|since when|which (?:day|year|month))\b"
    r"|언제|며칠|몇\s*월|몇\s*년|지난번|마지막으로|처음으로",
    re.IGNORECASE,
)
# Facts in a row that do not fit what is left of the budget before recall stops looking.
MAX_MISFITS = 20
# How much a dated fact gains when the message asks when something happened.
WHEN_BOOST = 1.5
SAID_BOOST = 1.2
# What a fact was said about (Fact.context: the question it answers, the rest of its message)
# counts half as much as what it says. Measured at 0.3, 0.5 and 1 (one text with the statement):
# 0.3 and 0.5 found the same; 1 lost answers on long messages, whose words then outweigh the statement.
CONTEXT_WEIGHT = 0.5


def asks_when(query: str) -> bool:
    """Whether the message asks about time ("when did I...", "last time", "언제")."""
    return bool(_ASKS_WHEN.search(query))


# What kind of answer a question wants, and what a fact holding one looks like: "how long" (얼마,
# 점수) wants a number or a duration ("for 4 years", "삼백오십만원"), "where" (or "which cities") a
# named place, "who" someone named, "what book" (song, film...) a title: quoted, or by someone
# named. A fact that matches the question's words and holds that kind of answer ranks above one
# that only matches; among facts that share no word with the question, one holding the kind is
# recalled first.
_A_FIGURE = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|a few|"
                       r"a couple|several|half)\b|(?:[일이삼사오육칠팔구]?[십백천만억]){1,6}\s*(?:원|만\s*원)", re.IGNORECASE)
_TITLED = r"books?|novels?|songs?|albums?|movies?|films?|shows?|series|poems?|podcasts?|plays?|games?|paintings?"
_ANSWER_KINDS = (
    (re.compile(r"\bhow (?:long|many|much|old|often|far)\b|\bwhat (?:score|price|grade|mark)\b|얼마|몇|점수", re.IGNORECASE),
     _A_FIGURE),
    # ... "what colour" one that names a colour ("dark green", "요트 블루", "하늘색")
    (re.compile(r"\b(?:what|which) colou?rs?\b|무슨\s*색|어떤\s*색|색깔|색상", re.IGNORECASE),
     re.compile(r"\b(?:red|blue|green|yellow|orange|purple|pink|black|white|gr[ae]y|silver|gold|brown|beige|navy|burgundy|maroon|"
                r"teal|turquoise|cream|ivory|mint|sage|olive|khaki|lilac|lavender|charcoal|bronze|copper|pistachio|emerald|"
                r"mustard|coral|peach|rust)\b|[가-힣]색(?!하|했|해)|빨간|파란|노란|하얀|까만|검정|검은|분홍|보라|주황|초록|연두|"
                r"베이지|네이비|아이보리|실버|블루|화이트|블랙|그레이|민트", re.IGNORECASE)),
    (re.compile(rf"\b(?:what|which)\s+(?:\w+\s+)?(?:{_TITLED})\b|무슨 (?:책|노래|영화)|어떤 (?:책|노래|영화)", re.IGNORECASE),
     re.compile(r'"[^"]{2,80}"|“[^”]{2,80}”|『[^』]{1,80}』|「[^」]{1,80}」|\bby (?:[A-Z][\w\'-]+\s?){1,3}')),
    (re.compile(r"\bwhere\b|\b(?:which|what)\s+(?:cit(?:y|ies)|countr(?:y|ies)|towns?|places?|states?)\b|어디|어느 (?:나라|도시)",
                re.IGNORECASE),
     re.compile(r"\b(?:in|at|to|from|near|visit(?:ed|ing)?)\s+(?:the\s+)?(?!I\b|I')[A-Z][\w'-]+|\b(?:in|at|to|from) the\b")),
    (re.compile(r"\bwho(?:m|se)?\b|누구", re.IGNORECASE), re.compile(r"(?<=\s)(?!I\b|I')[A-Z][\w'-]+")),
    # ... and "what job" one that says what they are or work as where ("They're a project coordinator at
    # an architects", "works as a nurse", "회사에서 일해", "스타트업 다니거든"; not "다녀왔어", a trip)
    (re.compile(r"\b(?:job|occupation|profession|career|do for (?:a living|work))\b|직업|무슨 일", re.IGNORECASE),
     re.compile(r"\b(?:they're|they are|they were|works? as|working as|worked as)\s+an?\s+(?:\w+\s+){1,2}?(?:at|for|in)\s"
                r"|(?<=[가-힣])\s*(?:일해|일하|일했|근무|다니|다녀(?!오|왔|와))", re.IGNORECASE)),
    # ... and in Korean, what major ("전공은?") one that names a department ("간호학과 4학년"), and what rank or
    # post ("직책", "보직") one that names a title ("생산과장 달았다", "통신병이라")
    (re.compile(r"전공|학과|무슨\s*과"), re.compile(r"[가-힣](?:학과|학부|전공)")),
    (re.compile(r"직책|직급|직위|보직|계급"),
     re.compile(r"(?:사원|주임|대리|과장|차장|부장|팀장|실장|본부장|지점장|센터장|원장|상무|전무|이사|수간호사|책임|선임|수석|"
                r"이병|일병|상병|병장|하사|중사|상사|소위|중위|대위|[가-힣]병)(?=이|으로|로|을|를|은|는|[가-힣]*\s|[,.!~]|$)")),
    # ... and whether they would enjoy or take to something, one that says what they love, hate or
    # cannot have ("Would Dalia enjoy a lobster dinner?" - "they're allergic to shellfish")
    (re.compile(r"\bwould\s+(?:\w+\s+){1,3}?(?:enjoy|like|love|want|suit|be keen|be interested|appreciate|mind)\b"
                r"|좋아할|반길|싫어할", re.IGNORECASE),
     re.compile(r"\b(?:loves?|loved|hates?|hated|can't stand|cannot stand|allergic|allergy|intolerant|vegetarian|vegan|veggie|"
                r"afraid|scared|terrified|phobia|favou?rite|prefers?|(?:don't|doesn't|never) (?:like|liked|eat|drink))\b"
                r"|좋아|싫어|싫더|못\s*먹|알레르기|질색|최애", re.IGNORECASE)),
)
KIND_BOOST = 1.3


def _answer_kind(query: str) -> re.Pattern[str] | None:
    """What a fact that answers ``query`` holds, when the question says (see _ANSWER_KINDS)."""
    return next((holds for asks, holds in _ANSWER_KINDS if asks.search(query)), None)


@lru_cache(maxsize=16384)
def _holds(kind: re.Pattern[str], statement: str) -> bool:
    """Whether ``statement`` holds the kind of answer ``kind`` looks for. Cached as ``_prefixes``:
    a question of a kind tests every fact of the user, and their statements recur turn after turn."""
    text = _without_said(statement)
    # (the dates resolution wrote into it hold figures, and answer no "how much")
    return bool(kind.search(fact_dates.WRITTEN.sub(" ", text) if kind is _A_FIGURE else text))


def recall(
    facts: Sequence[Fact],
    query: str,
    *,
    budget_tokens: int,
    max_facts: int,
    scores: Sequence[float] | None = None,
) -> list[Fact]:
    """The facts to send with ``query``: the most relevant first, within ``budget_tokens`` and
    ``max_facts``. Relevance first: what the message matches, then standing background (name,
    language); the budget left is filled with the other facts, closest by a second signal first
    (shared word beginnings, a named time for a question about when, then the most recently
    said): the words of a question seldom meet the words of the answer ("What car did I buy?" /
    "bought a used Subaru"), and a budget left empty recalls nothing. ``scores`` (e.g. embedding
    similarity) replaces the lexical BM25 scorer when given, and then nothing fills: similarity
    already meets other wordings, and below its floor a fact is unrelated. A message that asks
    when favours dated facts."""
    if not facts or max_facts <= 0:
        return []
    texts = [searchable(f) for f in facts]
    lexical = scores is None
    if scores is None:
        query = _without_own_name(query, facts)
        scores = relevance.bm25_scores(query, texts)
        if any(f.context for f in facts):  # what it was said about counts, less than what it says
            around = relevance.bm25_scores(query, [f.context for f in facts])
            scores = [s + CONTEXT_WEIGHT * a for s, a in zip(scores, around, strict=True)]
    if asks_when(query):  # what names its time first, then what carries when it was said
        scores = [s * (WHEN_BOOST if f.when else SAID_BOOST if f.key.split(".", 1)[0] in TOLD else 1.0)
                  for s, f in zip(scores, facts, strict=True)]
    kind = _answer_kind(query)
    if kind is not None:  # the kind of answer asked for ("how long" -> "for 4 years"), beyond when it was said
        scores = [s * KIND_BOOST if s > 0 and _holds(kind, f.statement) else s for s, f in zip(scores, facts, strict=True)]

    def standing(f: Fact) -> int:
        return STANDING_KEYS.index(f.key) if f.key in STANDING_KEYS else len(STANDING_KEYS)

    # What matches first (then standing background); the budget left is filled with the rest,
    # the closest by a second signal first (see ``_fill_order``).
    eligible = [i for i, f in enumerate(facts) if scores[i] > 0 or f.key in STANDING_KEYS]
    order = sorted(eligible, key=lambda i: (-scores[i], standing(facts[i]), facts[i].key))
    fill = _fill_order(facts, texts, query, set(eligible), limit=2 * max_facts + MAX_MISFITS) if lexical else []
    # (embeddings meet words in other forms already; below their floor a fact is unrelated: no fill)
    chosen: list[Fact] = []
    used = misfits = 0
    seen: set[str] = set()  # the words of what is already chosen
    days: set[date | None] = set()  # the days they were said on: each is said once (``recalled_cost``)
    repeats: list[int] = []
    for i in itertools.chain(_novel_first(order, facts, seen, repeats), fill):
        fact = facts[i]
        cost, day = recalled_cost(fact.statement, days)
        if used + cost > budget_tokens:
            misfits += 1
            if misfits == MAX_MISFITS:
                break  # the budget is as good as full: counting thousands more facts would cost the turn
            continue
        misfits = 0
        chosen.append(fact)
        days.add(day)
        seen.update(_term_set(_without_said(fact.statement)))
        used += cost
        if len(chosen) == max_facts or used + 4 > budget_tokens:
            break  # full: no statement costs fewer than four tokens ("- X" and its line)
    return chosen


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['\u2019]s)?")


def _without_own_name(query: str, facts: Sequence[Fact]) -> str:
    """``query`` without the person's own name ("What did Randy buy Colton?", "박미경이 ..."): every
    fact is theirs, so their name says nothing of which; it only meets the few facts where they
    gave it ("Juniper it's Randy reporting from ..."), ahead of the answer."""
    names = {w.casefold() for f in facts if f.key == "name" for w in f.value.split() if len(w) > 1}
    if not names:
        return query

    def drop(m: re.Match[str]) -> str:
        word = re.sub(r"['\u2019]s$", "", m.group(0)).casefold()
        if _HANGUL_3.match(word):  # (with its particle: 박미경이)
            own = any(word.startswith(n) for n in names)
        else:  # written as a name: "Which park did we walk in?" keeps park for Jenny Park
            own = word in names and m.group(0)[0].isupper()
        return " " if own else m.group(0)

    return _NAME_WORD.sub(drop, query)


# A fact whose words are nearly all in what recall already chose ("Looking into counselling jobs"
# after "Looking into counselling and mental health jobs") says little new: it waits until the
# facts that add something have had their turn, so the budget holds more of what the person told.
# A number none of them holds is new however few its words ("Spring game was on 3 May 2024" after
# "the spring game is the first Friday in May"): a date, a count, an amount is often the answer.
REPEAT_SHARE = 0.75


def _novel_first(order: Sequence[int], facts: Sequence[Fact], seen: set[str], repeats: list[int]):
    """``order``, except that a fact mostly repeating what was chosen before it (``seen``, filled by
    the caller as it chooses) is moved after the others, in its order (lazily: ``seen`` grows as
    the caller takes)."""
    for i in order:
        words = _term_set(_without_said(facts[i].statement))
        if (words and len(words & seen) >= REPEAT_SHARE * len(words)
                and all(w in seen for w in words if not w.isalpha())):
            repeats.append(i)
            continue
        yield i
    yield from repeats


# A word's first letters: "bought" and "buying", "married" and "marriage" share them where a
# light stemmer does not meet them. Short words say too little to count.
_PREFIX = 4


@lru_cache(maxsize=16384)
def _prefixes(text: str) -> frozenset[str]:
    return frozenset(w[:_PREFIX] for w in relevance.words(text) if len(w) >= _PREFIX and w.isalpha())


def _fill_order(facts: Sequence[Fact], texts: Sequence[str], query: str, taken: set[int], limit: int) -> list[int]:
    """At most ``limit`` facts BM25 did not score, closest first by a second signal: how many of
    the message's word beginnings they share, then whether they hold the kind of answer asked for
    (``_ANSWER_KINDS``), then (for a question about time) whether they name their time, then the
    most recently said, then by key."""
    wanted = _prefixes(query)
    when = asks_when(query)
    kind = _answer_kind(query)

    def signal(i: int) -> tuple[int, int, int, float, str]:
        f = facts[i]
        shared = len(wanted & _prefixes(texts[i])) if wanted else 0
        holds = kind is not None and _holds(kind, f.statement)
        # (facts said in one message share their time: the key breaks the tie, not the order the
        # shards were read in, so a turn recalls the same facts whichever way they were stored)
        return (-shared, -holds, -1 if when and f.when else 0, -f.source.at.timestamp(), f.key)

    rest = (i for i in range(len(facts)) if i not in taken)
    return heapq.nsmallest(limit, rest, key=signal)
