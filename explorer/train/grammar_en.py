"""The tiny-en grammar: English sentences in the style of "This is a pen ." whose agreement reaches
further back than one token. See explorer.train.corpora_grammar for what it teaches."""

from __future__ import annotations

from collections.abc import Sequence

from explorer.train.grammar_en_words import (
    _SAME_PERSON,
    CONCRETE,
    EN_ADJ_COLOUR,
    EN_ADJ_OTHER,
    EN_INTRANSITIVE,
    EN_NAMES,
    EN_NOUNS,
    EN_NUMBERS,
    EN_OBJ_PRON,
    EN_PLACES,
    EN_POSSESSIVES,
    EN_PRED_ADJ,
    EN_SUBJ_PRON,
    EN_TRANSITIVE,
    _a_or_an,
)
from explorer.train.grammar_rng import GrammarRng as _Rng


class _English:
    def __init__(self, rng: _Rng) -> None:
        self.r = rng

    # ---------------------------------------------------------------- noun phrases
    def noun(self, cats: Sequence[str]) -> tuple[str, str, str]:
        pool = [n for n in EN_NOUNS if n[2] in cats]
        return self.r.pick(pool)

    def adjectives(self, cat: str, p1: float = 0.45, p2: float = 0.35) -> list[str]:
        """0, 1 or 2 adjectives that fit ``cat``: at most one 'other' followed by at most one colour."""
        out: list[str] = []
        if not self.r.chance(p1):
            return out
        others = [a for a, cs in EN_ADJ_OTHER.items() if cat in cs]
        colours = [a for a, cs in EN_ADJ_COLOUR.items() if cat in cs]
        if colours and (not others or self.r.chance(0.4)):
            out.append(self.r.pick(colours))
            return out
        out.append(self.r.pick(others))
        if colours and self.r.chance(p2):
            out.append(self.r.pick(colours))
        return out

    def np(
        self, cats: Sequence[str], number: str | None = None, dets: str = "any", adj: bool = True
    ) -> tuple[list[str], str, str]:
        """A noun phrase. Returns (tokens, number 'sg'/'pl', category).

        ``dets``: 'any' (articles, possessives, demonstratives, numbers), 'def' (the / possessives only),
        'nodem' (anything but this/that/these/those), 'subj' (like 'nodem' but no bare plural, so that a
        sentence never starts with an adjective or noun), 'pred' (after "This is" / "These are": a / the /
        possessives, bare plurals).
        """
        sg, pl, cat = self.noun(cats)
        if number is None:
            number = "sg" if self.r.chance(0.55) else "pl"
        adjs = self.adjectives(cat) if adj else []
        if number == "sg":
            choices: list[tuple[float, str]] = [(3.0, "a"), (3.0, "the"), (2.0, "poss")]
            if dets == "any":
                choices += [(1.0, "this"), (1.0, "that")]
            if dets == "def":
                choices = [(3.0, "the"), (2.0, "poss")]
            kind = self.r.weighted(choices)
            head = sg
        else:
            choices = [(3.0, "the"), (2.0, "poss"), (1.5, "num"), (1.0, "some"), (1.5, "bare")]
            if dets == "any":
                choices += [(1.0, "these"), (1.0, "those")]
            if dets == "def":
                choices = [(3.0, "the"), (2.0, "poss")]
            if dets == "subj":
                choices = [(3.0, "the"), (2.0, "poss"), (1.5, "num"), (1.0, "some")]
            if dets == "pred":
                choices = [(1.0, "the"), (2.0, "poss"), (2.0, "bare")]
            kind = self.r.weighted(choices)
            head = pl
        rest = adjs + [head]
        if kind == "a":
            det = [_a_or_an(rest[0])]
        elif kind == "poss":
            det = [self.r.pick(EN_POSSESSIVES)]
        elif kind == "num":
            det = [self.r.pick(EN_NUMBERS)]
        elif kind == "bare":
            det = []
        else:
            det = [kind]
        return det + rest, number, cat

    def place_np(self, kind: str) -> list[str]:
        if kind == "place":
            det = self.r.weighted([(4.0, "the"), (1.0, "poss")])
            return [self.r.pick(EN_POSSESSIVES) if det == "poss" else "the", self.r.pick(EN_PLACES)]
        if kind == "river":
            return ["the", "river"]
        toks, _, _ = self.np(("furniture",), number="sg" if self.r.chance(0.7) else "pl", dets="def")
        return toks

    def subject(self, cats: Sequence[str], allow_pp: bool = True) -> tuple[list[str], str, tuple[str, ...]]:
        """A subject: pronoun, name or noun phrase (optionally with a PP modifier that can mislead
        agreement: "The dog near the cars runs"). Returns (tokens, agreement '3sg'/'other', categories)."""
        x = self.r.weighted([(3.0, "pron"), (1.0, "name"), (5.0, "np")])
        if x == "pron":
            pool = [p for p, (_, cs) in EN_SUBJ_PRON.items() if any(c in cats for c in cs)]
            if pool:
                p = self.r.pick(pool)
                pers, cs = EN_SUBJ_PRON[p]
                return [p], "3sg" if pers == "3sg" else "other", tuple(c for c in cs if c in cats)
        if x == "name" and "person" in cats:
            return [self.r.pick(EN_NAMES)], "3sg", ("person",)
        toks, number, cat = self.np(cats, dets="subj" if self.r.chance(0.7) else "any")
        if toks[0] not in ("the", "a", "an", "some") + EN_POSSESSIVES + EN_NUMBERS:
            if toks[0] not in ("this", "that", "these", "those"):  # a bare plural from dets="any"
                toks = ["the"] + toks
        if allow_pp and self.r.chance(0.2):
            prep = self.r.pick(("near", "with", "on", "in"))
            if prep == "with":
                pp, _, _ = self.np(("animal", "thing", "food", "person"), dets="nodem")
            elif prep == "in":
                pp = self.place_np("place")
            else:
                pp = self.place_np("furniture")
            toks = toks + [prep] + pp
        return toks, "3sg" if number == "sg" else "other", (cat,)

    def obj(self, cats: Sequence[str], subj: list[str]) -> list[str]:
        if self.r.chance(0.12):
            pool = [
                p for p, cs in EN_OBJ_PRON.items() if any(c in cats for c in cs) and (subj[0], p) not in _SAME_PERSON
            ]
            if pool:
                return [self.r.pick(pool)]
        toks, _, _ = self.np(cats, dets="any")
        return toks

    # ---------------------------------------------------------------- helpers
    def tense(self) -> tuple[str, list[str], list[str]]:
        """Returns (tense, front adverb tokens, end adverb tokens)."""
        t = self.r.weighted([(5.0, "pres"), (3.0, "past")])
        adv: list[str] = []
        if t == "past" and self.r.chance(0.6):
            adv = self.r.pick((["yesterday"], ["last", "night"], ["last", "week"]))
        elif t == "pres" and self.r.chance(0.3):
            adv = self.r.pick((["every", "day"], ["every", "morning"]))
        if adv and self.r.chance(0.5):
            return t, adv, []
        return t, [], adv

    @staticmethod
    def be(agr: str, subj: list[str]) -> str:
        if subj == ["I"]:
            return "am"
        return "is" if agr == "3sg" else "are"

    # ---------------------------------------------------------------- sentence templates
    def demonstrative(self) -> list[str]:
        # "This is a pen ." / "These are my red books ." / "That is not an egg ."
        number = "sg" if self.r.chance(0.55) else "pl"
        dem = self.r.pick(("this", "that") if number == "sg" else ("these", "those"))
        np, _, _ = self.np(CONCRETE, number=number, dets="pred")
        neg = ["not"] if self.r.chance(0.15) else []
        return [dem, "is" if number == "sg" else "are"] + neg + np + ["."]

    def demonstrative_q(self) -> list[str]:
        # "Is this a pen ?" / "Are those your books ?"
        number = "sg" if self.r.chance(0.55) else "pl"
        dem = self.r.pick(("this", "that") if number == "sg" else ("these", "those"))
        np, _, _ = self.np(CONCRETE, number=number, dets="pred")
        return ["is" if number == "sg" else "are", dem] + np + ["?"]

    def what_is(self) -> list[str]:
        number = "sg" if self.r.chance(0.55) else "pl"
        dem = self.r.pick(("this", "that") if number == "sg" else ("these", "those"))
        return ["what", "is" if number == "sg" else "are", dem, "?"]

    def pronoun_copula(self) -> list[str]:
        # "I am a student ." / "They are good teachers ." / "She is not happy ."
        p = self.r.pick(("I", "you", "he", "she", "we", "they") + EN_NAMES)
        plural = p in ("we", "they") or (p == "you" and self.r.chance(0.4))
        be = "am" if p == "I" else ("are" if plural or p == "you" else "is")
        neg = ["not"] if self.r.chance(0.15) else []
        if self.r.chance(0.5):
            adj = self.r.pick([a for a, cs in EN_PRED_ADJ.items() if "person" in cs])
            pred = [adj] if self.r.chance(0.75) else ["very", adj]
        else:
            np, _, _ = self.np(("person",), number="pl" if plural else "sg", dets="pred")
            pred = np
        return [p, be] + neg + pred + ["."]

    def np_copula(self) -> list[str]:
        # "These big dogs are hungry ." / "The book on the table is new ."
        toks, agr, cats = self.subject(("animal", "food", "thing", "text", "vehicle", "furniture", "person"))
        if len(toks) == 1 and (toks[0] in EN_SUBJ_PRON or toks[0] in EN_NAMES):
            return self.pronoun_copula()
        cat = cats[0]
        adj = self.r.pick([a for a, cs in EN_PRED_ADJ.items() if cat in cs])
        neg = ["not"] if self.r.chance(0.12) else []
        very = ["very"] if self.r.chance(0.15) else []
        if self.r.chance(0.2):  # question: "Is the cat hungry ?"
            return [self.be(agr, toks)] + toks + very + [adj, "?"]
        return toks + [self.be(agr, toks)] + neg + very + [adj, "."]

    def there_is(self) -> list[str]:
        # "There are two cats on the table ." / "Is there an egg in the box ?"
        np, number, _ = self.np(("animal", "food", "thing", "text", "person"), dets="nodem")
        if np[0] in ("the",) + EN_POSSESSIVES:  # "There is a ..." reads best with indefinites
            np = np[1:]
            if number == "sg":
                np = [_a_or_an(np[0])] + np
        if self.r.chance(0.5):
            loc = [self.r.pick(("on", "under", "near"))] + self.place_np("furniture")
        else:
            loc = [self.r.pick(("in", "near"))] + self.place_np("place")
        be = "is" if number == "sg" else "are"
        if self.r.chance(0.2):
            return [be, "there"] + np + loc + ["?"]
        return ["there", be] + np + loc + ["."]

    def transitive(self) -> list[str]:
        # "The cat sees a dog ." / "Yesterday my friends bought two red cars ."
        verb = self.r.pick(EN_TRANSITIVE)
        base, s3, past, scats, ocats = verb
        subj, agr, _ = self.subject(scats)
        tense, front, end = self.tense()
        obj = self.obj(ocats, subj)
        if tense == "past":
            v = [past]
        else:
            v = [s3 if agr == "3sg" else base]
        return front + subj + v + obj + end + ["."]

    def intransitive(self) -> list[str]:
        # "The big dog runs to the park ." / "She went to school yesterday ."
        base, s3, past, scats, frames = self.r.pick(EN_INTRANSITIVE)
        subj, agr, _ = self.subject(scats)
        tense, front, end = self.tense()
        prep, kind = self.r.pick(frames)
        v = [past] if tense == "past" else [s3 if agr == "3sg" else base]
        return front + subj + v + [prep] + self.place_np(kind) + end + ["."]

    def do_support(self) -> list[str]:
        # "Does she like cats ?" / "The dogs do not eat apples ." / "Did Tom buy a car ?"
        if self.r.chance(0.75):
            base, _, _, scats, ocats = self.r.pick(EN_TRANSITIVE)
            tail_fn = lambda subj: self.obj(ocats, subj)  # noqa: E731
        else:
            base, _, _, scats, frames = self.r.pick(EN_INTRANSITIVE)
            prep, kind = self.r.pick(frames)
            tail_fn = lambda subj: [prep] + self.place_np(kind)  # noqa: E731
        subj, agr, _ = self.subject(scats)
        past = self.r.chance(0.35)
        aux = "did" if past else ("does" if agr == "3sg" else "do")
        tail = tail_fn(subj)
        adv: list[str] = []
        if past and self.r.chance(0.5):
            adv = self.r.pick((["yesterday"], ["last", "night"]))
        if self.r.chance(0.55):
            return [aux] + subj + [base] + tail + adv + ["?"]
        return adv + subj + [aux, "not", base] + tail + ["."]

    def wh_question(self) -> list[str]:
        kind = self.r.weighted([(2.0, "where"), (2.0, "who"), (2.0, "what_do")])
        if kind == "where":
            # "Where is my red bag ?" / "Where are the cats ?"
            np, number, _ = self.np(("animal", "person", "thing", "text", "vehicle", "food"), dets="def")
            return ["where", "is" if number == "sg" else "are"] + np + ["?"]
        if kind == "who":
            # "Who has a red pen ?" / "Who ate the cake ?"
            base, s3, past, scats, ocats = self.r.pick(EN_TRANSITIVE)
            v = past if self.r.chance(0.35) else s3
            np, _, _ = self.np(ocats, dets="any")
            return ["who", v] + np + ["?"]
        # "What does the cat eat ?" / "What did you buy ?"
        base, _, _, scats, _ = self.r.pick(EN_TRANSITIVE)
        subj, agr, _ = self.subject(scats, allow_pp=False)
        aux = "did" if self.r.chance(0.35) else ("does" if agr == "3sg" else "do")
        return ["what", aux] + subj + [base, "?"]

    TEMPLATES = (
        (3.0, "demonstrative"),
        (2.0, "demonstrative_q"),
        (0.6, "what_is"),
        (1.5, "pronoun_copula"),
        (2.5, "np_copula"),
        (1.5, "there_is"),
        (5.0, "transitive"),
        (3.0, "intransitive"),
        (2.5, "do_support"),
        (1.5, "wh_question"),
    )

    def sentence(self) -> str:
        name = self.r.weighted(self.TEMPLATES)
        toks: list[str] = getattr(self, name)()
        toks = [toks[0][0].upper() + toks[0][1:]] + toks[1:]
        return " ".join(toks)


def generate_tiny_en(n_sentences: int, seed: int) -> list[str]:
    """``n_sentences`` English sentences from the tiny-en grammar; the same ``seed`` gives the same list.

    Tokens are separated by single spaces; every sentence ends with " ." or " ?"; the first word is
    capitalised ("I" and names always are)."""
    if n_sentences < 0:
        raise ValueError(f"n_sentences must be >= 0, got {n_sentences}")
    g = _English(_Rng(seed))
    return [g.sentence() for _ in range(n_sentences)]
