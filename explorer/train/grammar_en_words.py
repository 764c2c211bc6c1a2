"""The tiny-en grammar's words: nouns with their categories, adjectives, verbs with the subjects and
objects they take, pronouns, and which words start with a vowel sound. See explorer.train.corpora_grammar."""

from __future__ import annotations

# Nouns: (singular, plural, category). Categories drive which verbs / adjectives may go with a noun.
EN_NOUNS: tuple[tuple[str, str, str], ...] = (
    # animals
    ("cat", "cats", "animal"),
    ("dog", "dogs", "animal"),
    ("bird", "birds", "animal"),
    ("horse", "horses", "animal"),
    ("elephant", "elephants", "animal"),
    ("rabbit", "rabbits", "animal"),
    ("duck", "ducks", "animal"),
    ("mouse", "mice", "animal"),
    # people
    ("boy", "boys", "person"),
    ("girl", "girls", "person"),
    ("man", "men", "person"),
    ("woman", "women", "person"),
    ("child", "children", "person"),
    ("student", "students", "person"),
    ("teacher", "teachers", "person"),
    ("friend", "friends", "person"),
    # food
    ("apple", "apples", "food"),
    ("egg", "eggs", "food"),
    ("orange", "oranges", "food"),
    ("banana", "bananas", "food"),
    ("cake", "cakes", "food"),
    ("cookie", "cookies", "food"),
    # small things
    ("pen", "pens", "thing"),
    ("bag", "bags", "thing"),
    ("box", "boxes", "thing"),
    ("cup", "cups", "thing"),
    ("hat", "hats", "thing"),
    ("ball", "balls", "thing"),
    ("key", "keys", "thing"),
    ("umbrella", "umbrellas", "thing"),
    ("flower", "flowers", "thing"),
    # things to read / write
    ("book", "books", "text"),
    ("letter", "letters", "text"),
    ("story", "stories", "text"),
    ("newspaper", "newspapers", "text"),
    # vehicles
    ("car", "cars", "vehicle"),
    ("bus", "buses", "vehicle"),
    ("bike", "bikes", "vehicle"),
    # furniture (also places where things are)
    ("table", "tables", "furniture"),
    ("desk", "desks", "furniture"),
    ("chair", "chairs", "furniture"),
    ("bed", "beds", "furniture"),
    ("tree", "trees", "furniture"),
)
# Places: singular only ("to the park").
EN_PLACES: tuple[str, ...] = (
    "park",
    "school",
    "station",
    "library",
    "garden",
    "river",
    "zoo",
    "shop",
    "house",
)

EN_SINGULAR = frozenset(s for s, _, _ in EN_NOUNS) | frozenset(EN_PLACES)
EN_PLURAL = frozenset(p for _, p, _ in EN_NOUNS)
_NOUN_CAT = {s: c for s, _, c in EN_NOUNS} | {p: c for _, p, c in EN_NOUNS}

ANIMATE = ("animal", "person")
CONCRETE = ("animal", "person", "food", "thing", "text", "vehicle", "furniture")

# Adjectives: word -> categories it can describe. "Colour" adjectives come after the others.
EN_ADJ_OTHER: dict[str, tuple[str, ...]] = {
    "big": ("animal", "food", "thing", "text", "vehicle", "furniture"),
    "small": ("animal", "food", "thing", "text", "vehicle", "furniture"),
    "little": ("animal", "person", "thing"),
    "old": CONCRETE,
    "new": ("thing", "text", "vehicle", "furniture"),
    "young": ("animal", "person"),
    "tall": ("person", "furniture"),
    "happy": ANIMATE,
    "hungry": ANIMATE,
    "angry": ANIMATE,
    "good": CONCRETE,
    "nice": CONCRETE,
    "cute": ("animal",),
    "heavy": ("thing", "furniture", "text"),
    "empty": ("thing",),
    "expensive": ("thing", "vehicle", "food"),
    "interesting": ("text", "person"),
    "sweet": ("food",),
}
EN_ADJ_COLOUR: dict[str, tuple[str, ...]] = {
    "red": ("food", "thing", "vehicle"),
    "blue": ("thing", "vehicle"),
    "green": ("food", "thing", "vehicle"),
    "white": ("animal", "thing", "vehicle", "furniture"),
    "black": ("animal", "thing", "vehicle", "furniture"),
    "yellow": ("food", "thing", "vehicle"),
    "brown": ("animal", "thing", "furniture"),
}
EN_ADJECTIVES = frozenset(EN_ADJ_OTHER) | frozenset(EN_ADJ_COLOUR)
# Predicate adjectives for "X is ___ ." (a subset that reads naturally without a noun).
EN_PRED_ADJ: dict[str, tuple[str, ...]] = {
    a: cats for a, cats in {**EN_ADJ_OTHER, **EN_ADJ_COLOUR}.items() if a not in ("little", "empty")
}

# Transitive verbs: (base, 3sg, past, subject categories, object categories).
EN_TRANSITIVE: tuple[tuple[str, str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("see", "sees", "saw", ANIMATE, CONCRETE),
    ("like", "likes", "liked", ANIMATE, ("animal", "person", "food", "thing", "text", "vehicle")),
    ("have", "has", "had", ANIMATE, ("animal", "food", "thing", "text", "vehicle")),
    ("eat", "eats", "ate", ANIMATE, ("food",)),
    ("read", "reads", "read", ("person",), ("text",)),
    ("write", "writes", "wrote", ("person",), ("text",)),
    ("want", "wants", "wanted", ANIMATE, ("animal", "food", "thing", "text", "vehicle")),
    ("buy", "buys", "bought", ("person",), ("food", "thing", "text", "vehicle")),
    ("find", "finds", "found", ANIMATE, ("animal", "food", "thing", "text")),
    ("carry", "carries", "carried", ("person",), ("thing", "food", "text", "animal")),
    ("wash", "washes", "washed", ("person",), ("vehicle", "thing", "animal")),
    ("drive", "drives", "drove", ("person",), ("vehicle",)),
    ("draw", "draws", "drew", ("person",), CONCRETE),
    ("chase", "chases", "chased", ("animal",), ("animal", "thing", "person")),
)
# Intransitive verbs: (base, 3sg, past, subject categories, (preposition, place kinds)).
# Place kinds: "place" (EN_PLACES) or "furniture" (nouns of that category).
EN_INTRANSITIVE: tuple[tuple[str, str, str, tuple[str, ...], tuple[tuple[str, str], ...]], ...] = (
    ("go", "goes", "went", ("person",), (("to", "place"),)),
    ("come", "comes", "came", ("person",), (("to", "place"),)),
    ("walk", "walks", "walked", ANIMATE, (("to", "place"), ("in", "place"))),
    ("run", "runs", "ran", ANIMATE, (("to", "place"), ("in", "place"))),
    ("swim", "swims", "swam", ANIMATE, (("in", "river"),)),
    ("sleep", "sleeps", "slept", ANIMATE, (("on", "furniture"), ("under", "furniture"), ("in", "place"))),
    ("sit", "sits", "sat", ANIMATE, (("on", "furniture"), ("near", "furniture"))),
    ("play", "plays", "played", ANIMATE, (("in", "place"),)),
    ("live", "lives", "lived", ANIMATE, (("in", "place"), ("near", "place"))),
)
EN_VERB_3SG = frozenset(v[1] for v in EN_TRANSITIVE + EN_INTRANSITIVE)
EN_VERB_BASE = frozenset(v[0] for v in EN_TRANSITIVE + EN_INTRANSITIVE)
EN_VERB_PAST = frozenset(v[2] for v in EN_TRANSITIVE + EN_INTRANSITIVE)

EN_POSSESSIVES = ("my", "your", "his", "her", "our", "their")
EN_NUMBERS = ("two", "three", "five")
EN_NAMES = ("Tom", "Ken", "Mary", "Emi")
# Subject pronouns: word -> (person/number, categories it can stand for).
EN_SUBJ_PRON: dict[str, tuple[str, tuple[str, ...]]] = {
    "I": ("1sg", ("person",)),
    "you": ("2", ("person",)),
    "he": ("3sg", ("person",)),
    "she": ("3sg", ("person",)),
    "it": ("3sg", ("animal",)),
    "we": ("1pl", ("person",)),
    "they": ("3pl", ANIMATE),
}
EN_OBJ_PRON: dict[str, tuple[str, ...]] = {
    "me": ("person",),
    "you": ("person",),
    "him": ("person",),
    "her": ("person",),
    "it": ("animal", "food", "thing", "text", "vehicle"),
    "us": ("person",),
    "them": CONCRETE,
}
_SAME_PERSON = {("I", "me"), ("we", "us"), ("you", "you")}

EN_VOWEL_START = frozenset(w for w in (list(EN_SINGULAR) + list(EN_PLURAL) + list(EN_ADJECTIVES)) if w[0] in "aeiou")


def _a_or_an(next_word: str) -> str:
    """'an' before a vowel sound. Every vowel-letter word in this vocabulary starts with a vowel sound."""
    return "an" if next_word[0] in "aeiou" else "a"
