"""Does the classroom model know words? Two measures that ``eval`` prints for the ``english`` corpus.

* **Whole words**: a *word* is a maximal run of the letters A–Z/a–z ("didn't" is the words "didn" and "t",
  "ice-cream" is "ice" and "cream"). A word is *whole* when one token covers exactly it, or it and the one
  character before it when that is a space or an apostrophe (byte-level BPE glues the space to the front of
  a word, " pen", and cuts contractions as "'t", "'s"). ``whole_word_share`` is the share of the words of
  some sentences that are whole; ORDINARY_SENTENCES are the held-out set (written for this measure, none of
  them in the training text: a test checks).
* **Cloze**: for each of the CLOZE prompts, do the model's five likeliest next tokens hold a sensible word
  (one of a hand-written list, compared without the leading space and case)? ``cloze_share`` is the share
  of prompts where they do.
"""

from __future__ import annotations

import re

import torch

WORD = re.compile(r"[A-Za-z]+")
GLUE = " '"  # the one character a whole word's token may carry before it

ORDINARY_SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "After the long lesson, the students asked the teacher why the model looked back at the first word so often.",
    "My grandmother keeps a small garden behind her house.",
    "We missed the bus this morning, so we walked to school.",
    "The weather was warm and sunny for the whole weekend.",
    "Could you please pass me the salt and the pepper?",
    "He forgot his keys on the kitchen table again.",
    "The museum opens at nine and closes at five.",
    "Our neighbours have two dogs and a very old cat.",
    "She practised the piano every evening before dinner.",
    "The children laughed when the clown fell off his bicycle.",
    "I would like a cup of coffee with a little milk.",
    "The river was too deep to cross without a boat.",
    "They painted the fence white last summer.",
    "Everyone in the village knew the baker's daughter.",
    "The doctor said that I should rest for a few days.",
    "It started to snow just as we reached the top of the hill.",
    "Tom lost his wallet on the way to the station.",
    "The library is closed on Sundays and public holidays.",
    "When the phone rang, nobody wanted to answer it.",
    "The old man told us a story about the war.",
    "Please write your name at the top of the page.",
    "A bird built its nest in the tree outside my window.",
    "The shop on the corner sells fresh bread and cheese.",
    "My sister is learning to drive a car.",
    "The teacher wrote the answer on the board.",
    "We watched a film about a family that lived on a farm.",
    "The meeting was cancelled because the manager was ill.",
    "He always drinks a glass of water after his run.",
    "The price of the tickets went up again this year.",
    "I can't find my glasses anywhere in the house.",
    "The baby slept quietly while the rain fell outside.",
    "They are planning a trip to the mountains in July.",
    "The kitchen smelled of onions and fresh soup.",
    "Her brother works at a hospital in the city.",
    "The boy threw the ball over the wall by mistake.",
    "We should leave early to avoid the heavy traffic.",
    "The students opened their books and began to read.",
    "The light in the hall was left on all night.",
    "Nobody knew where the little dog had gone.",
)

# (prompt, sensible next words): what a reader would accept as the next word, written by hand.
CLOZE: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (prompt, frozenset(words.split()))
    for prompt, words in (
        (
            "The cat sat on the",
            "mat floor chair table bed sofa couch roof fence wall ground grass step steps desk "
            "window rug carpet bench box stairs porch tree door car seat edge top windowsill cushion",
        ),
        (
            "I went to the",
            "store shop market park school house library bank doctor hospital church beach station "
            "office city door cinema movies theatre theater zoo museum party game kitchen hotel airport restaurant "
            "bar concert meeting town country river sea mountains garden top front back end bottom post window",
        ),
        ("The sun rises in the", "east morning sky summer spring day horizon early distance"),
        (
            "She opened the",
            "door window box book letter bag gate drawer envelope package lid car bottle curtains "
            "present file case cupboard closet safe fridge jar doors windows newspaper paper mail gift",
        ),
        (
            "The dog barked at the",
            "cat man mailman postman door moon stranger strangers boy girl children car "
            "cars noise window visitors people neighbors neighbours dog squirrel birds bird shadow gate fence "
            "intruder thief woman",
        ),
        (
            "He drank a glass of",
            "water milk wine beer juice whiskey whisky brandy champagne lemonade tea port "
            "sherry gin rum vodka cider soda",
        ),
        ("It was a cold winter", "day night morning evening afternoon wind storm season month week"),
        (
            "The children played in the",
            "park garden yard street streets snow sand water field fields playground "
            "backyard house room rain mud woods forest sun grass sea river pool dirt meadow school band",
        ),
        ("Please close the", "door window gate box book lid curtains windows doors file drawer shop store bottle"),
        (
            "She wrote a letter to her",
            "mother father sister brother friend son daughter husband aunt uncle "
            "parents family lover boyfriend boss teacher grandmother grandfather friends children cousin mom "
            "dad mum lawyer doctor best old",
        ),
        (
            "The teacher asked the",
            "students class children pupils boy girl question student pupil kids "
            "principal parents boys girls man woman child",
        ),
        (
            "He put the book on the",
            "table shelf desk floor bed chair counter bookshelf ground top pile sofa couch rack seat",
        ),
        (
            "The car stopped at the",
            "light lights corner station door gate house end red stop crossing "
            "intersection curb kerb bridge border edge hotel entrance front side foot garage bank store shop "
            "school church traffic village farm gas petrol",
        ),
        (
            "The king and the",
            "queen prince princess people court bishop knight pope emperor duke lords nobles "
            "army church soldiers kingdom servant peasant jester president parliament nation lion beggar "
            "knights subjects wizard poor",
        ),
        (
            "She bought a new",
            "car dress house hat book pair coat bike bicycle phone computer home bag shirt "
            "suit watch camera piano horse apartment flat television bed chair table boat toy dog cat shoes "
            "lamp jacket skirt sweater umbrella",
        ),
        (
            "The doctor told the",
            "patient nurse man woman family boy girl mother father parents child truth "
            "story police court jury patients people wife husband judge old young sick",
        ),
        (
            "Turn off the",
            "light lights lamp radio tv television water gas engine computer oven stove heat "
            "heating power music machine alarm tap motor fan switch sound",
        ),
        (
            "Fish live in the",
            "sea water ocean river rivers lake lakes pond seas oceans deep tank stream streams waters",
        ),
        (
            "He plays the",
            "piano guitar violin drums flute trumpet role game part cello organ harp fool horn "
            "saxophone clarinet bass banjo lottery fiddle trombone tuba oboe",
        ),
        (
            "We sat down at the",
            "table desk piano bar counter fire window edge end foot side front back "
            "kitchen dinner breakfast bench computer beach bank shore",
        ),
        (
            "The train arrived at the",
            "station platform end border city town village depot terminal stop airport junction crossing",
        ),
        ("Good morning, how are", "you things we they"),
        ("Thank you very", "much"),
        ("Once upon a", "time"),
        (
            "The bird flew over the",
            "house trees tree wall fence river sea lake field fields hill hills roof "
            "garden city town village water mountains mountain forest woods ocean valley bridge top",
        ),
        (
            "My mother cooked",
            "dinner breakfast lunch supper a the some rice meat soup chicken fish eggs "
            "pasta potatoes vegetables food meals",
        ),
    )
)


def whole_word_share(tokenizer, sentences) -> tuple[float, list[str]]:
    """(share of the sentences' words that are one token, the words that are not)."""
    total, split = 0, []
    for text in sentences:
        spans = {(a, b) for a, b in tokenizer.hf.encode(text).offsets}
        for m in WORD.finditer(text):
            total += 1
            a, b = m.span()
            glued = a > 0 and text[a - 1] in GLUE and (a - 1, b) in spans
            if (a, b) not in spans and not glued:
                split.append(m.group())
    return (1 - len(split) / total if total else 0.0), split


def top_next_tokens(bundle, prompt: str, k: int = 5) -> list[str]:
    """The model's k likeliest next tokens after ``prompt``, as text pieces (" mat")."""
    tok = bundle.tokenizer
    ids = torch.tensor([tok.encode(prompt).ids])
    with torch.inference_mode():
        logits = bundle.model(ids)[0, -1].float()
    return [tok.token(int(i)) for i in logits.topk(k).indices]


def cloze_share(bundle, k: int = 5) -> tuple[float, dict[str, list[str]]]:
    """(share of CLOZE prompts whose top k holds a sensible word, every prompt's top k)."""
    hits, tops = 0, {}
    for prompt, sensible in CLOZE:
        top = top_next_tokens(bundle, prompt, k)
        tops[prompt] = top
        hits += any(t.strip().lower() in sensible for t in top)
    return hits / len(CLOZE), tops
