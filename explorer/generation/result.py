"""A finished generation: the prompt's trace, one Step per new token, and the arrays of the trace of it.

The arrays live in the same Trace as the prompt's (names ``gen.*`` and ``cache.*`` of explorer/names.py), so
one snapshot holds both and reopens read-only; the steps' words and timings go to the manifest's
``generation`` field (docs/snapshot-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.errors import SnapshotError
from explorer.trace.trace import Trace
from explorer.vocab import STOP_REASONS


@dataclass(frozen=True)
class Step:
    """Token ``index`` (0-based) of the continuation, chosen from the distribution of query ``query``."""

    index: int
    token_id: int
    token: str
    prob: float  # the chosen token's probability under softmax(logits / T)
    top: tuple[tuple[int, str, float], ...]  # the most likely tokens: (id, text, probability)
    ms: float  # measured time of the forward pass that produced the distribution
    query: int  # position of the query whose row gave the distribution (C_prompt − 1 + index)
    cached: bool  # True when that pass read the KV cache (every step after the first one, with the cache)

    @property
    def keys(self) -> int:
        """How many keys the query saw (positions 0 … query)."""
        return self.query + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "token_id": self.token_id,
            "prob": self.prob,
            "top": [[t, p] for _, t, p in self.top],
            "top_ids": [i for i, _, _ in self.top],
            "ms": self.ms,
            "query": self.query,
            "cached": self.cached,
        }

    @classmethod
    def from_dict(cls, index: int, d: dict[str, Any]) -> Step:
        top = tuple((int(i), str(t), float(p)) for i, (t, p) in zip(d["top_ids"], d["top"]))
        return cls(
            index,
            int(d["token_id"]),
            str(d["token"]),
            float(d["prob"]),
            top,
            float(d["ms"]),
            int(d["query"]),
            bool(d["cached"]),
        )


@dataclass(frozen=True, eq=False)
class Generation:
    trace: Trace  # the prompt's trace, plus gen.* (per step) and cache.* (the final cache) arrays
    steps: tuple[Step, ...]
    prompt: str
    text: str  # the prompt and the continuation as one string
    use_cache: bool
    sampling: dict[str, Any]
    max_new_tokens: int
    stop_ids: tuple[int, ...]
    stopped: str  # one of STOP_REASONS
    notices: tuple[str, ...] = ()

    @property
    def prompt_tokens(self) -> int:
        return self.trace.C

    @property
    def token_ids(self) -> tuple[int, ...]:
        return tuple(s.token_id for s in self.steps)

    @property
    def read_only(self) -> bool:
        return self.trace.read_only

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``generation`` field."""
        return {
            "prompt": self.prompt,
            "text": self.text,
            "prompt_tokens": self.prompt_tokens,
            "use_cache": self.use_cache,
            "sampling": dict(self.sampling),
            "max_new_tokens": self.max_new_tokens,
            "stop_ids": list(self.stop_ids),
            "stopped": self.stopped,
            "notices": list(self.notices),
            "steps": [s.to_dict() for s in self.steps],
        }

    def summary(self) -> dict[str, Any]:
        """What ``attention-explorer generate --json`` prints."""
        return {
            "prompt": self.prompt,
            "text": self.text,
            "steps": [
                {k: v for k, v in s.to_dict().items() if k in ("token", "token_id", "prob", "top", "ms")}
                for s in self.steps
            ],
        }

    @classmethod
    def from_dict(cls, trace: Trace, d: Any, where: str) -> Generation:
        """Rebuild from a snapshot's manifest (its tensors are in ``trace``)."""
        try:
            steps = tuple(Step.from_dict(i, s) for i, s in enumerate(d["steps"]))
            stopped = str(d["stopped"])
            if stopped not in STOP_REASONS:
                raise ValueError(f"unknown stop reason {stopped!r}")
            gen = cls(
                trace,
                steps,
                str(d["prompt"]),
                str(d["text"]),
                bool(d["use_cache"]),
                dict(d["sampling"]),
                int(d["max_new_tokens"]),
                tuple(int(i) for i in d["stop_ids"]),
                stopped,
                tuple(str(n) for n in d.get("notices", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SnapshotError(f"{where}: the generation in the manifest is incomplete ({exc})") from None
        stored = tuple(trace["gen.tokens"][0].tolist()) if "gen.tokens" in trace else ()
        if stored != gen.token_ids:
            raise SnapshotError(f"{where}: the generated tokens do not match the manifest's steps")
        return gen
