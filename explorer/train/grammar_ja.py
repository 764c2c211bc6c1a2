"""The tiny-ja grammar: Japanese sentences in the style of 「これはペンです。」 with particles, verb endings set
by a time word and います/あります set by the noun. See explorer.train.corpora_grammar for what it teaches."""

from __future__ import annotations

from collections.abc import Sequence

from explorer.train.grammar_rng import GrammarRng as _Rng

# Nouns: word -> category.
JA_NOUNS: dict[str, str] = {
    # animals (animate: います)
    "猫": "animal",
    "犬": "animal",
    "鳥": "animal",
    "馬": "animal",
    "うさぎ": "animal",
    "パンダ": "animal",
    # people (animate)
    "先生": "person",
    "学生": "person",
    "子供": "person",
    "友達": "person",
    "母": "person",
    "父": "person",
    "田中さん": "person",
    "山田さん": "person",
    # food
    "りんご": "food",
    "パン": "food",
    "魚": "food",
    "ケーキ": "food",
    "卵": "food",
    "バナナ": "food",
    "肉": "food",
    "ご飯": "food",
    # drinks
    "水": "drink",
    "お茶": "drink",
    "牛乳": "drink",
    "コーヒー": "drink",
    "ジュース": "drink",
    # things to read / write
    "本": "text",
    "新聞": "text",
    "手紙": "text",
    "雑誌": "text",
    # things
    "ペン": "thing",
    "鉛筆": "thing",
    "かばん": "thing",
    "傘": "thing",
    "時計": "thing",
    "箱": "thing",
    "カメラ": "thing",
    "帽子": "thing",
    "ノート": "thing",
    "花": "thing",
    # vehicles
    "車": "vehicle",
    "自転車": "vehicle",
    "バス": "vehicle",
    # to watch
    "テレビ": "show",
    "映画": "show",
    "写真": "show",
}
JA_ANIMATE = frozenset(n for n, c in JA_NOUNS.items() if c in ("animal", "person"))
JA_INANIMATE = frozenset(n for n, c in JA_NOUNS.items() if c not in ("animal", "person"))
# Places: word -> kind.  "move": you go there; "act": you do things there.
JA_PLACES: tuple[str, ...] = ("学校", "公園", "駅", "図書館", "病院", "店", "家", "海", "川", "会社", "庭", "部屋")
# Where things are: "机の上", "箱の中" ...
JA_CONTAINERS = ("机", "箱", "いす", "木", "部屋", "かばん", "車")
JA_POSITIONS = ("上", "下", "中", "前", "近く")

# i-adjectives (attributive = predicate form, ends in い) and na-adjectives (stem; attributive adds な).
JA_I_ADJ: dict[str, tuple[str, ...]] = {
    "赤い": ("thing", "vehicle", "food"),
    "青い": ("thing", "vehicle"),
    "白い": ("animal", "thing", "vehicle", "food"),
    "黒い": ("animal", "thing", "vehicle"),
    "大きい": ("animal", "thing", "vehicle", "food", "text"),
    "小さい": ("animal", "thing", "vehicle", "food", "text"),
    "新しい": ("thing", "vehicle", "text"),
    "古い": ("thing", "vehicle", "text"),
    "高い": ("thing", "vehicle", "food"),
    "安い": ("thing", "vehicle", "food"),
    "おいしい": ("food", "drink"),
    "かわいい": ("animal", "thing"),
    "面白い": ("text", "show", "person"),
    "冷たい": ("drink",),
    "重い": ("thing", "text"),
}
JA_NA_ADJ: dict[str, tuple[str, ...]] = {
    "きれい": ("thing", "vehicle", "show", "person"),
    "元気": ("animal", "person"),
    "有名": ("person", "text", "show"),
    "好き": ("animal", "food", "drink", "thing", "text", "show"),
    "静か": ("animal", "person"),
}

# Transitive verbs: (masu stem, subject categories, object categories).
JA_TRANSITIVE: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("食べ", ("person", "animal"), ("food",)),
    ("飲み", ("person", "animal"), ("drink",)),
    ("読み", ("person",), ("text",)),
    ("書き", ("person",), ("text",)),
    ("見", ("person", "animal"), ("show", "animal", "thing", "vehicle")),
    ("買い", ("person",), ("food", "drink", "text", "thing", "vehicle")),
    ("作り", ("person",), ("food",)),
    ("洗い", ("person",), ("vehicle", "thing")),
    ("使い", ("person",), ("thing", "vehicle")),
)
# Verbs of motion (place に): stem.
JA_MOTION = ("行き", "来", "帰り")
# Activities at a place (place で): (stem, subject categories, places).
JA_ACTIVITY: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("遊び", ("person", "animal"), ("公園", "庭", "部屋", "家", "海", "川")),
    ("泳ぎ", ("person", "animal"), ("海", "川")),
    ("勉強し", ("person",), ("学校", "図書館", "部屋", "家")),
    ("働き", ("person",), ("会社", "病院", "店", "駅", "学校")),
    ("寝", ("person", "animal"), ("部屋", "家", "庭")),
    ("走り", ("person", "animal"), ("公園", "庭", "駅")),
)
JA_SUBJ_PRON = ("私", "あなた", "彼", "彼女", "私たち")
JA_POSSESSORS = ("私", "あなた", "彼", "彼女", "先生", "友達", "田中さん", "母")
JA_MASU = {"pres": ("ます", "ません"), "past": ("ました", "ませんでした")}
JA_PAST_WORDS = ("昨日", "先週")
JA_PRES_WORDS = ("毎日", "明日", "毎朝")


class _Japanese:
    def __init__(self, rng: _Rng) -> None:
        self.r = rng

    def noun(self, cats: Sequence[str]) -> tuple[str, str]:
        pool = [(n, c) for n, c in JA_NOUNS.items() if c in cats]
        return self.r.pick(pool)

    def modifiers(self, cat: str) -> str:
        """Optional possessor ("私の") and/or adjective ("赤い" / "きれいな")."""
        out = ""
        if cat not in ("person", "animal") and self.r.chance(0.25):
            out += self.r.pick(JA_POSSESSORS) + "の"
        if self.r.chance(0.35):
            i_adj = [a for a, cs in JA_I_ADJ.items() if cat in cs]
            na_adj = [a for a, cs in JA_NA_ADJ.items() if cat in cs and a != "好き"]
            if na_adj and (not i_adj or self.r.chance(0.25)):
                out += self.r.pick(na_adj) + "な"
            elif i_adj:
                out += self.r.pick(i_adj)
        return out

    def np(self, cats: Sequence[str], mods: bool = True) -> tuple[str, str]:
        n, c = self.noun(cats)
        return (self.modifiers(c) if mods else "") + n, c

    def subject(self, cats: Sequence[str]) -> tuple[str, str]:
        """(subject phrase without particle, category)."""
        if "person" in cats and self.r.chance(0.4):
            return self.r.pick(JA_SUBJ_PRON), "person"
        n, c = self.noun(cats)
        if c == "animal" and self.r.chance(0.3):
            return self.r.pick(("この", "その", "あの")) + self.modifiers(c) + n, c
        if c == "animal" and self.r.chance(0.2):
            return self.r.pick(JA_POSSESSORS) + "の" + n, c
        return n, c

    def time(self) -> tuple[str, str]:
        """(tense, time prefix such as '昨日、' or '')."""
        tense = "past" if self.r.chance(0.35) else "pres"
        if self.r.chance(0.45):
            return tense, self.r.pick(JA_PAST_WORDS if tense == "past" else JA_PRES_WORDS) + "、"
        return tense, ""

    def topic(self, subj: str) -> str:
        """は (topic) or が (subject); pronouns mostly take は."""
        return "は" if self.r.chance(0.85 if subj in JA_SUBJ_PRON else 0.4) else "が"

    def ending(self, tense: str, neg_p: float = 0.15) -> str:
        pos, neg = JA_MASU[tense]
        return neg if self.r.chance(neg_p) else pos

    @staticmethod
    def finish(body: str, question: bool) -> str:
        return body + ("か。" if question else "。")

    # ---------------------------------------------------------------- templates
    def demonstrative(self) -> str:
        # これはペンです。 / それは私の本ですか。 / あれは赤い車ではありません。
        dem = self.r.pick(("これ", "それ", "あれ"))
        np, _ = self.np(("food", "drink", "text", "thing", "vehicle", "animal", "show"))
        q = self.r.chance(0.3)
        if self.r.chance(0.15):
            return self.finish(f"{dem}は{np}ではありません", q)
        return self.finish(f"{dem}は{np}です", q)

    def what_is(self) -> str:
        # これは何ですか。 / あれは誰の車ですか。
        dem = self.r.pick(("これ", "それ", "あれ"))
        if self.r.chance(0.3):
            n, _ = self.noun(("text", "thing", "vehicle"))
            return f"{dem}は誰の{n}ですか。"
        return f"{dem}は何ですか。"

    def adjective_predicate(self) -> str:
        # この猫は小さいです。 / あの花はきれいですか。 / その本は面白くないです。
        n, c = self.noun(("animal", "food", "drink", "text", "thing", "vehicle", "show"))
        det = self.r.pick(("この", "その", "あの", "私の", "")) if self.r.chance(0.8) else ""
        q = self.r.chance(0.25)
        i_adj = [a for a, cs in JA_I_ADJ.items() if c in cs]
        na_adj = [a for a, cs in JA_NA_ADJ.items() if c in cs and a != "好き"]
        neg = self.r.chance(0.2)
        if na_adj and (not i_adj or self.r.chance(0.3)):
            a = self.r.pick(na_adj)
            pred = f"{a}ではありません" if neg else f"{a}です"
        else:
            a = self.r.pick(i_adj)
            pred = f"{a[:-1]}くないです" if neg else f"{a}です"
        return self.finish(f"{det}{n}は{pred}", q)

    def transitive(self) -> str:
        # 猫が魚を食べます。 / 昨日、私は本を読みました。 / 先生は図書館で新聞を読みますか。
        stem, scats, ocats = self.r.pick(JA_TRANSITIVE)
        subj, _ = self.subject(scats)
        topic = self.topic(subj)
        tense, when = self.time()
        q = self.r.chance(0.2)
        if q and self.r.chance(0.4):
            return f"{when}{subj}は何を{stem}{JA_MASU[tense][0]}か。"
        obj, _ = self.np(ocats)
        where = ""
        if self.r.chance(0.2):
            where = self.r.pick(JA_PLACES) + "で"
        return self.finish(f"{when}{subj}{topic}{where}{obj}を{stem}{self.ending(tense)}", q)

    def motion(self) -> str:
        # 私は学校に行きます。 / 昨日、友達が家に来ました。 / どこに行きますか。
        subj, _ = self.subject(("person", "animal") if self.r.chance(0.2) else ("person",))
        tense, when = self.time()
        stem = self.r.pick(JA_MOTION)
        if self.r.chance(0.12):
            return f"{when}{subj}はどこに{stem}{JA_MASU[tense][0]}か。"
        place = self.r.pick(JA_PLACES)
        part = self.r.pick(("に", "に", "へ"))
        return self.finish(f"{when}{subj}は{place}{part}{stem}{self.ending(tense)}", self.r.chance(0.2))

    def activity(self) -> str:
        # 子供が公園で遊びます。 / 私は図書館で勉強しました。
        stem, scats, places = self.r.pick(JA_ACTIVITY)
        subj, _ = self.subject(scats)
        tense, when = self.time()
        topic = self.topic(subj)
        return self.finish(f"{when}{subj}{topic}{self.r.pick(places)}で{stem}{self.ending(tense)}", self.r.chance(0.2))

    def existence(self) -> str:
        # 机の上に本があります。 / 公園に犬がいます。 / 猫はどこにいますか。
        head, c = self.noun(("animal", "person", "food", "drink", "text", "thing", "vehicle"))
        while head == "魚":  # a fish in a river "is" (います) but fish as food "is" (あります): leave it out
            head, c = self.noun(("animal", "person", "food", "drink", "text", "thing", "vehicle"))
        n = (self.modifiers(c) if self.r.chance(0.4) else "") + head
        verb = "い" if head in JA_ANIMATE else "あり"
        tense = "past" if self.r.chance(0.2) else "pres"
        if self.r.chance(0.5):
            cont = self.r.pick([x for x in JA_CONTAINERS if x != head])
            loc = f"{cont}の{self.r.pick(JA_POSITIONS)}"
        else:
            loc = self.r.pick(JA_PLACES)
        form = self.r.weighted([(3.0, "loc_first"), (2.0, "topic"), (1.0, "where")])
        if form == "where":
            return f"{n}はどこに{verb}{JA_MASU[tense][0]}か。"
        if form == "topic":
            return self.finish(f"{n}は{loc}に{verb}{self.ending(tense)}", self.r.chance(0.2))
        return self.finish(f"{loc}に{n}が{verb}{self.ending(tense)}", self.r.chance(0.2))

    def like(self) -> str:
        # 私は猫が好きです。 / 田中さんはコーヒーが好きではありません。
        subj, _ = self.subject(("person",))
        n, _ = self.noun(("animal", "food", "drink", "text", "show", "vehicle"))
        pred = "好きではありません" if self.r.chance(0.2) else "好きです"
        return self.finish(f"{subj}は{n}が{pred}", self.r.chance(0.2))

    TEMPLATES = (
        (3.0, "demonstrative"),
        (0.8, "what_is"),
        (2.0, "adjective_predicate"),
        (5.0, "transitive"),
        (2.5, "motion"),
        (2.0, "activity"),
        (2.5, "existence"),
        (1.2, "like"),
    )

    def sentence(self) -> str:
        return getattr(self, self.r.weighted(self.TEMPLATES))()


def generate_tiny_ja(n_sentences: int, seed: int) -> list[str]:
    """``n_sentences`` Japanese sentences from the tiny-ja grammar; the same ``seed`` gives the same list.

    No spaces; every sentence ends with 。 (questions with か。)."""
    if n_sentences < 0:
        raise ValueError(f"n_sentences must be >= 0, got {n_sentences}")
    g = _Japanese(_Rng(seed))
    return [g.sentence() for _ in range(n_sentences)]
