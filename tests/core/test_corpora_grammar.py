"""The tiny-en / tiny-ja corpora: deterministic, reproducible from the committed files, grammatical."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.train import corpora_grammar as cg
from explorer.train.corpora_grammar import build_corpora, generate_tiny_en, generate_tiny_ja

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO / "resources" / "corpora"
FILES = ("tiny-en/train.txt", "tiny-en/heldout.txt", "tiny-ja/train.txt", "tiny-ja/heldout.txt")


def _read(rel: str) -> list[str]:
    text = (CORPORA / rel).read_text(encoding="utf-8")
    assert text.endswith("\n") and not text.endswith("\n\n"), rel
    return text[:-1].split("\n")


@pytest.fixture(scope="module")
def en() -> list[str]:
    return _read("tiny-en/train.txt") + _read("tiny-en/heldout.txt")


@pytest.fixture(scope="module")
def ja() -> list[str]:
    return _read("tiny-ja/train.txt") + _read("tiny-ja/heldout.txt")


# ----------------------------------------------------------------------------------- determinism / files


@pytest.mark.parametrize("gen", [generate_tiny_en, generate_tiny_ja])
def test_same_seed_same_output_different_seed_different(gen):
    a = gen(300, 7)
    assert a == gen(300, 7)
    assert len(a) == 300
    b = gen(300, 8)
    assert a != b
    # not merely a permutation or a few lines apart
    assert sum(x != y for x, y in zip(a, b)) > 200
    assert gen(0, 7) == []


@pytest.mark.parametrize("gen", [generate_tiny_en, generate_tiny_ja])
def test_negative_count_rejected(gen):
    with pytest.raises(ValueError):
        gen(-1, 0)


def test_committed_files_equal_fresh_generation(tmp_path):
    written = build_corpora(tmp_path)
    assert sorted(str(p.relative_to(tmp_path)) for p in written.values()) == sorted(FILES)
    for rel in FILES:
        fresh = (tmp_path / rel).read_bytes()
        committed = (CORPORA / rel).read_bytes()
        assert committed == fresh, f"{rel} differs from a fresh build: run python explorer/train/corpora_grammar.py"


def test_sizes_and_split():
    sizes = {rel: len(_read(rel)) for rel in FILES}
    assert sizes == {
        "tiny-en/train.txt": 20_000,
        "tiny-en/heldout.txt": 2_000,
        "tiny-ja/train.txt": 20_000,
        "tiny-ja/heldout.txt": 2_000,
    }
    assert sum((CORPORA / rel).stat().st_size for rel in FILES) < 3_000_000
    for lang in ("tiny-en", "tiny-ja"):
        train, held = _read(f"{lang}/train.txt"), _read(f"{lang}/heldout.txt")
        # a different seed stream, not a slice of train
        assert held != train[: len(held)]
        train_set = set(train)
        overlap = sum(s in train_set for s in held) / len(held)
        assert overlap < 0.5, (lang, overlap)
        assert all(s and s == s.strip() for s in train + held)


# ----------------------------------------------------------------------------------- English

DEMS_SG = {"this", "that"}
DEMS_PL = {"these", "those"}
NUMBERS = set(cg.EN_NUMBERS)
SINGULAR = cg.EN_SINGULAR
PLURAL = cg.EN_PLURAL
ADJ = cg.EN_ADJECTIVES
THIRD_SG_PRON = {"he", "she", "it"} | {n.lower() for n in cg.EN_NAMES}
NON3_PRON = {"i", "you", "we", "they"}
PRESENT_3SG = cg.EN_VERB_3SG
PRESENT_BASE = cg.EN_VERB_BASE - cg.EN_VERB_PAST  # "read" is both


def _low(s: str) -> list[str]:
    return [w.lower() for w in s.split()]


def _head_after(toks: list[str], i: int) -> tuple[str | None, int]:
    """Skip adjectives from position i; return (noun, index after it) or (None, i) if no noun follows."""
    j = i
    while j < len(toks) and toks[j] in ADJ:
        j += 1
    if j < len(toks) and (toks[j] in SINGULAR or toks[j] in PLURAL):
        return toks[j], j + 1
    return None, i


def test_en_shape(en):
    for s in en:
        assert s.endswith(" .") or s.endswith(" ?"), s
        assert "  " not in s and s == s.strip(), s
        toks = s.split()
        assert toks[0][0].isupper(), s
        assert all(t not in ".?" for t in toks[:-1]), s
        assert all(re.fullmatch(r"[A-Za-z]+|[.?]", t) for t in toks), s
        assert 3 <= len(toks) <= 24, s


def test_en_questions_start_with_question_word(en):
    qwords = {"is", "are", "do", "does", "did", "what", "where", "who"}
    for s in en:
        first = s.split()[0].lower()
        assert s.endswith(" ?") == (first in qwords), s


def test_en_a_an(en):
    for s in en:
        toks = _low(s)
        for a, b in zip(toks, toks[1:]):
            if a == "a":
                assert b[0] not in "aeiou", s
            if a == "an":
                assert b[0] in "aeiou", s
    joined = "\n".join(en)
    assert " a apple" not in joined and "A apple" not in joined
    assert " an pen" not in joined and " an big" not in joined


def test_en_determiner_noun_number_agreement(en):
    checked = 0
    for s in en:
        toks = _low(s)
        for i, t in enumerate(toks):
            if t in DEMS_SG | DEMS_PL | NUMBERS | {"a", "an"}:
                head, _ = _head_after(toks, i + 1)
                if head is None:
                    continue
                checked += 1
                if t in DEMS_PL | NUMBERS:
                    assert head in PLURAL, s
                else:
                    assert head in SINGULAR, s
    assert checked > 5_000


def test_en_copula_agreement(en):
    """this/that is, these/those are (both orders); 'There is' + singular, 'There are' + plural;
    a noun phrase subject (possibly with a PP) and its copula agree."""
    seen = set()
    for s in en:
        toks = _low(s)
        for a, b in zip(toks, toks[1:]):
            if {a, b} & (DEMS_SG | DEMS_PL) and {a, b} & {"is", "are"}:
                dem = a if a in DEMS_SG | DEMS_PL else b
                cop = b if dem == a else a
                assert (cop == "is") == (dem in DEMS_SG), s
                seen.add("dem")
        if toks[0] in ("there", "is", "are") and "there" in toks[:2]:
            cop = toks[0] if toks[0] != "there" else toks[1]
            j = 2
            while toks[j] in NUMBERS | {"a", "an", "some"}:
                j += 1
            head, _ = _head_after(toks, j)
            assert head is not None, s
            assert (cop == "is") == (head in SINGULAR), s
            seen.add("there")
        # "The big dogs near the tables are hungry ." / "My old cat is happy ."
        if (
            toks[0]
            in {"the", "my", "your", "his", "her", "our", "their", "this", "that", "these", "those", "a", "an", "some"}
            | NUMBERS
        ):
            head, j = _head_after(toks, 1)
            if head is None:
                continue
            if j < len(toks) and toks[j] in ("near", "with", "on", "in"):  # skip a PP modifier
                k = j + 1
                if toks[k] in {"the", "my", "your", "his", "her", "our", "their", "a", "an", "some"} | NUMBERS:
                    k += 1
                attractor, j2 = _head_after(toks, k)
                if attractor is not None:
                    j = j2
                    seen.add("pp")
            if j < len(toks) and toks[j] in ("is", "are"):
                assert (toks[j] == "is") == (head in SINGULAR), s
                seen.add("np")
    assert seen == {"dem", "there", "np", "pp"}


def test_en_subject_verb_agreement(en):
    checked = 0
    for s in en:
        toks = _low(s)
        if toks[0] in ("yesterday", "every"):
            toks = toks[1:] if toks[0] == "yesterday" else toks[2:]
        elif toks[0] == "last":
            toks = toks[2:]
        subj, j = toks[0], 1
        if subj in THIRD_SG_PRON | NON3_PRON:
            third = subj in THIRD_SG_PRON
        else:
            # determiner + noun phrase subject, optionally with a PP modifier
            if (
                subj
                not in {
                    "the",
                    "my",
                    "your",
                    "his",
                    "her",
                    "our",
                    "their",
                    "this",
                    "that",
                    "these",
                    "those",
                    "a",
                    "an",
                    "some",
                }
                | NUMBERS
            ):
                continue
            head, j = _head_after(toks, 1)
            if head is None:
                continue
            if toks[j] in ("near", "with", "on", "in"):
                k = j + 1
                if toks[k] in {"the", "my", "your", "his", "her", "our", "their", "a", "an", "some"} | NUMBERS:
                    k += 1
                att, j2 = _head_after(toks, k)
                if att is None:
                    continue
                j = j2
            third = head in SINGULAR
        v = toks[j]
        if v in PRESENT_3SG or v == "does":
            assert third, s
            checked += 1
        elif v in PRESENT_BASE or v == "do":
            assert not third, s
            checked += 1
        elif v in ("is", "are", "am"):
            assert (v == "is") == third or (v == "am" and subj == "i"), s
            checked += 1
    assert checked > 5_000


def test_en_do_support_takes_base_form(en):
    for s in en:
        toks = _low(s)
        if toks[0] in ("do", "does", "did") or "not" in toks and any(t in toks for t in ("do", "does", "did")):
            assert not any(t in PRESENT_3SG for t in toks), s
            assert not any(t in cg.EN_VERB_PAST - cg.EN_VERB_BASE for t in toks), s


def test_en_past_adverbs_take_past_tense(en):
    n = 0
    for s in en:
        toks = _low(s)
        if "yesterday" in toks or ("last" in toks and toks[toks.index("last") + 1] in ("night", "week")):
            n += 1
            assert not any(t in PRESENT_3SG | {"do", "does", "is", "are", "am"} for t in toks), s
            assert any(t in cg.EN_VERB_PAST or t == "did" for t in toks), s
        if "every" in toks:
            assert not any(t in cg.EN_VERB_PAST - cg.EN_VERB_BASE or t == "did" for t in toks), s
    assert n > 1_000


def test_en_vocabulary_size(en):
    types = {w for s in en for w in s.split()}
    assert 150 <= len(types) <= 300, len(types)


def test_en_has_structure_a_bigram_cannot_see(en):
    """After the same adjective both singular and plural nouns occur; the determiner further back decides."""
    after_adj: dict[str, set[str]] = {}
    for s in en:
        toks = _low(s)
        for a, b in zip(toks, toks[1:]):
            if a in ADJ and (b in SINGULAR or b in PLURAL):
                after_adj.setdefault(a, set()).add("sg" if b in SINGULAR else "pl")
    both = [a for a, nums in after_adj.items() if nums == {"sg", "pl"}]
    assert len(both) >= 10
    # ... and e.g. "These <adjective> <plural noun>" really occurs
    assert any(s.split()[0] == "These" and s.split()[1] in ADJ for s in en)


# ----------------------------------------------------------------------------------- Japanese


def test_ja_shape(ja):
    for s in ja:
        assert s.endswith("。"), s
        assert s.count("。") == 1, s
        assert not re.search(r"\s", s), s
        assert not re.search(r"[A-Za-z0-9]", s), s


def test_ja_questions(ja):
    qs = [s for s in ja if s.endswith("か。")]
    assert 0.1 < len(qs) / len(ja) < 0.5
    for s in ja:
        if "何" in s or "どこ" in s or "誰" in s:
            assert s.endswith("か。"), s


def test_ja_verb_endings_follow_time_words(ja):
    n_past = n_pres = 0
    for s in ja:
        body = s.removesuffix("。").removesuffix("か")
        if s.startswith(cg.JA_PAST_WORDS):
            n_past += 1
            assert body.endswith(("ました", "ませんでした")), s
        elif s.startswith(cg.JA_PRES_WORDS):
            n_pres += 1
            assert body.endswith(("ます", "ません")), s
        if body.endswith(("ます", "ました", "ません", "ませんでした")):
            assert re.search(r"(ます|ました|ません|ませんでした)$", body), s
    assert n_past > 500 and n_pres > 500


def test_ja_iru_aru_follow_animacy(ja):
    animate = sorted(cg.JA_ANIMATE, key=len, reverse=True)
    inanimate = sorted(cg.JA_INANIMATE, key=len, reverse=True)
    checked = 0
    for s in ja:
        m = re.search(r"(?:に(.+?)が|^(.+?)は(?:どこに|.+?に))(い|あり)(?:ます|ました|ません|ませんでした)か?。$", s)
        if not m:
            continue
        np = m.group(1) or m.group(2)
        if np.startswith(("毎", "昨日", "明日", "先週")):
            continue
        if any(np.endswith(a) for a in animate):
            assert m.group(3) == "い", s
            checked += 1
        elif any(np.endswith(a) for a in inanimate):
            assert m.group(3) == "あり", s
            checked += 1
    assert checked > 1_000
    assert "犬がいます" in "".join(ja) and "本があります" in "".join(ja)
    assert "犬があります" not in "".join(ja) and "本がいます" not in "".join(ja)


def test_ja_adjectives(ja):
    text = "\n".join(ja)
    for a in cg.JA_NA_ADJ:
        assert f"{a}い" not in text  # na-adjectives never take い
    assert "きれいな" in text and "きれいです" in text
    assert "赤い車" in text or "赤いペン" in text


def test_ja_character_count(ja):
    chars = {c for s in ja for c in s}
    assert 80 <= len(chars) <= 300, len(chars)
