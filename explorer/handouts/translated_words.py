"""A figure's words in any language with a shipped .ts file, without Qt (a figure drawn from Python).

The source texts are the English tables the figures already use (``words.py``'s, the stage titles of
explorer/present/stage_titles.py, the edge words of explorer/present/stages.py), looked up in the translation
contexts explorer/ui/words/figure_words.py translates them in, so that ``Figure.of_stage(…, language="ja")``
and ``figure --language ja`` draw the same words (tests/ui/test_figure_words_pure.py holds the two together).
"""

from __future__ import annotations

from functools import cache, partial

from explorer import vocab
from explorer.errors import ConfigError
from explorer.handouts.words import ENGLISH, TENSOR_TITLES, WORDS, FigureWords, tensor_key
from explorer.present import stages
from explorer.present.stage_titles import STAGE_TITLES, TITLE_CONTEXT
from explorer.util.translations import translations

TEXT_CONTEXT = "TensorView"  # the central view's words, which the figure repeats
TEXT_CONTEXTS = {  # the words a figure takes from elsewhere: the Compare view's, and its own
    "compare title": "CompareFigure",
    "compare a": "CompareView",
    "compare b": "CompareView",
    "compare intervened": "CompareView",
    "compare difference": "CompareView",
    "compare query": "CompareView",
    "compare key": "CompareView",
    "compare legend": "CompareView",
    "compare units": "CompareView",
    "compare gather": "CompareFigure",
}
TENSOR_CONTEXT = "Captions"  # explorer/ui/words/captions.py's tensor_title
EDGE_CONTEXT = "StageWords"  # explorer/ui/words/stage_words.py's stage_words


@cache
def figure_words(language: str = "en") -> FigureWords:
    """The words of a figure in ``language`` (one of vocab.LANGUAGES, as ``figure --language``); English is
    the source texts themselves."""
    if language not in vocab.LANGUAGES:
        raise ConfigError(f"unknown language {language!r}: choose one of {', '.join(vocab.LANGUAGES)}")
    if language == "en":
        return ENGLISH
    tr = translations(language).translate  # refuses a language without a .ts, in one line
    return FigureWords(
        text={key: tr(TEXT_CONTEXTS.get(key, TEXT_CONTEXT), source) for key, source in WORDS.items()},
        stage_titles={key: tr(TITLE_CONTEXT, t.title) for key, t in STAGE_TITLES.items()},
        tensor_title=partial(translated_tensor_title, language),
        edge_words={key: tr(EDGE_CONTEXT, source) for key, source in stages.WORDS.items()},
    )


def translated_tensor_title(language: str, name: str) -> str:
    """What a traced tensor is, in ``language``; a name without a title stays itself, as in the window."""
    source = TENSOR_TITLES.get(tensor_key(name))
    return name if source is None else translations(language).translate(TENSOR_CONTEXT, source)
