"""``explorer.generate`` and the ``generate`` command's choices: the sampling asked for and the tokens to stop
after, with the command's one-line messages (the command reads its flags through these functions)."""

from __future__ import annotations

from typing import Any

from explorer.errors import ConfigError
from explorer.util.printable import quoted


def sampling(
    greedy: bool = False,
    temperature: float | None = None,
    top_k: int | None = None,
    top_p: float | None = None,
    seed: int | None = None,
):
    """Greedy unless one of temperature, top_k, top_p or seed is given (explorer.generation.sampling)."""
    from explorer.generation.sampling import Sampling

    sampled = [temperature, top_k, top_p]
    if greedy and any(v is not None for v in sampled):
        raise ConfigError(
            "--greedy always takes the most likely token: drop --temperature, --top-k and --top-p, or drop --greedy"
        )
    if greedy or all(v is None for v in (*sampled, seed)):
        return Sampling()
    return Sampling(
        greedy=False,
        temperature=1.0 if temperature is None else temperature,
        top_k=top_k,
        top_p=1.0 if top_p is None else top_p,
        seed=0 if seed is None else seed,
    )


def stop_ids(stop: list[str] | tuple[str, ...] | str | None, tokenizer) -> tuple[int, ...]:
    """The ids of the tokens to stop after (default: the vocabulary's end-of-text token)."""
    if not stop:
        from explorer.generation.sampling import end_token_ids

        return end_token_ids(tokenizer)
    ids = []
    display = tokenizer.display_vocab()
    for token in [stop] if isinstance(stop, str) else stop:
        i = tokenizer.token_id(token)
        if i is None and token in display:
            i = display.index(token)
        if i is None:
            raise ConfigError(f"--stop takes a token of the vocabulary; {quoted(token)} is not one")
        ids.append(i)
    return tuple(ids)


class GenerationResult:
    """A prompt and its continuation (explorer.generation.Generation, ``.generation``): ``.text``, ``.steps``
    (each token, its probability and alternatives), ``.summary()`` (what ``generate --json`` prints),
    ``.trace`` (the prompt's and each step's tensors as a TraceResult) and ``.save(path)``."""

    def __init__(self, generation, source) -> None:
        self.generation = generation
        self.source = source

    @property
    def text(self) -> str:
        return self.generation.text

    @property
    def prompt(self) -> str:
        return self.generation.prompt

    @property
    def steps(self) -> list[dict[str, Any]]:
        return self.summary()["steps"]

    def summary(self) -> dict[str, Any]:
        return self.generation.summary()

    @property
    def trace(self):
        from explorer.api.result import TraceResult

        core = self.generation.trace
        return TraceResult(core, self.source, "\n".join(r.text for r in core.rows), core.options)

    def save(self, path, format: str | None = None):
        """One snapshot of the generation, as ``generate -o`` writes it."""
        from explorer.export.snapshot import write_generation

        return write_generation(self.generation, path, format)

    def __repr__(self) -> str:
        return f"GenerationResult({len(self.generation.steps)} new tokens: {self.text!r})"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": self.text}
