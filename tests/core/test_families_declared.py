"""Issue 37, one file per model family: every family's module declares the whole family (config.json mapping,
refusals, Hugging Face and GGUF tensor names, the stages and parameters it adds, its catalogued models), each
declaration is true of the family's own example config, and no module of explorer/ outside explorer/families/
lists family names of its own (the registry is the one list)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from explorer import names
from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families import ENCODER_TYPES, FAMILIES, GGUF_ARCHITECTURES, HF_TYPES, gguf_family, hf_family
from explorer.families.catalogue import catalogued
from explorer.present.stages import stage, stages_for

ROOT = Path(__file__).resolve().parents[2]
EXPLORER = ROOT / "explorer"
IDS = [f.name for f in FAMILIES]


def _patterns(cfg: ModelConfig) -> set[str]:
    return {names.spec(name).pattern for name in cfg.parameter_shapes()}


# The parameters of the plain decoder (the app's own model, every option on): what no family "adds".
PLAIN = _patterns(
    ModelConfig(
        vocab_size=50,
        norm="layernorm",
        bias=True,
        positions="learned",
        tie_embeddings=False,
        ffn_activation="silu_gated",
    )
)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_every_family_declares_the_whole_family(family):
    assert family.name and family.summary and family.hf_type and family.example
    assert callable(family.hf_config) and callable(family.hf_sources)
    assert family.refuses, f"{family.name} declares no refusal"
    assert family.example["model_type"] == family.hf_type
    # GGUF: all three parts or none
    assert bool(family.gguf_arch) == (family.gguf_fields is not None) == (family.gguf_sources is not None)
    assert hf_family(family.hf_type) is family
    if family.gguf_arch:
        assert gguf_family(family.gguf_arch) is family


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_its_tensor_names_give_every_parameter_of_its_config(family):
    cfg = family.hf_config(family.example, "config.json")
    wanted = set(cfg.parameter_shapes())
    assert {f"params.{k}" for k in family.hf_sources(cfg, family.example)} == wanted
    if family.gguf_sources is not None:
        assert {f"params.{k}" for k in family.gguf_sources(cfg)} == wanted


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_its_stages_and_parameters_are_what_its_config_adds(family):
    cfg = family.hf_config(family.example, "config.json")
    added_stages = {s.key for s in stages_for(cfg) if s.needs}
    assert added_stages == set(family.stages)
    assert all(stage(key).needs for key in family.stages)  # a key of explorer/present/stages.py
    assert _patterns(cfg) - PLAIN == set(family.parameters)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_each_declared_refusal_refuses_in_one_line(family):
    for refusal in family.refuses:
        data = {**family.example, refusal.field: refusal.value}
        with pytest.raises(ModelLoadError, match=re.escape(refusal.says)) as caught:
            family.hf_config(data, "config.json")
        assert "\n" not in str(caught.value) and str(caught.value).startswith("config.json")


def test_the_registry_lists_each_family_once_and_the_catalogue_reads_it():
    assert len(set(HF_TYPES)) == len(HF_TYPES) == len(FAMILIES)
    assert len(set(GGUF_ARCHITECTURES)) == len(GGUF_ARCHITECTURES)
    assert set(ENCODER_TYPES) == {f.hf_type for f in FAMILIES if f.encoder}
    models = list(catalogued())
    assert len({m.name for m in models}) == len(models) and len({m.place for m in models}) == len(models)
    from explorer.weights.installed import KNOWN

    from_families = [k for k in KNOWN if not k.package]
    assert [k.name for k in from_families] == [m.name for m in models]
    assert all(hf_family(k.family) is not None for k in from_families if not k.missing)


# ---------------------------------------------------------------------------- the registry is the one list

# Family names that may appear outside explorer/families/, each with why it is not a family table.
ALLOWED = {
    # llama.cpp's tokenizer kinds and pre-tokenizer names (tokenizer.ggml.model / .pre), not model families
    ("explorer/weights/gguf/tokenizer.py", "gpt2"),
    ("explorer/weights/gguf/tokenizer.py", "llama"),
    ("explorer/weights/gguf/tokenizer.py", "qwen2"),
}


def family_literals(source: str) -> set[str]:
    """The string constants of ``source`` that name a family (its name, model_type or GGUF architecture)."""
    words = {w for f in FAMILIES for w in (f.name, f.hf_type, f.gguf_arch) if w}
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words:
            found.add(node.value)
    return found


def _found_outside_families() -> set[tuple[str, str]]:
    out = set()
    for path in sorted(EXPLORER.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("explorer/families/"):
            continue
        out |= {(rel, word) for word in family_literals(path.read_text(encoding="utf-8"))}
    return out


def test_no_module_outside_the_families_lists_family_names():
    found = _found_outside_families()
    assert found - ALLOWED == set(), "a family name outside explorer/families/: read it from the registry"
    assert ALLOWED - found == set(), "an allow-list entry no longer needed: remove it"


def test_the_scan_finds_a_family_table_written_elsewhere():
    table = 'FAMILIES = {"qwen3": 1, "gemma3_text": 2}\nif cfg.family == "bert":\n    pass\n'
    assert family_literals(table) == {"qwen3", "gemma3_text", "bert"}
    assert family_literals('model = "qwen3-0.6b"  # a model name, not a family\n') == set()


def test_the_recipe_quotes_the_smallest_family_whole():
    """docs/architecture.md's "A new family" shows the smallest family's module as it is."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    recipe = doc[doc.index("### A new family") :]
    quoted = recipe[recipe.index("```python\n") + len("```python\n") :]
    quoted = quoted[: quoted.index("```\n")]
    modules = {f.name: EXPLORER / "families" / f"{f.name}.py" for f in FAMILIES}
    smallest = min(modules.values(), key=lambda p: len(p.read_text(encoding="utf-8").splitlines()))
    assert quoted == smallest.read_text(encoding="utf-8"), f"the recipe should quote {smallest.name} as it is"
