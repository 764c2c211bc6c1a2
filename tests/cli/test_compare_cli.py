"""``attention-explorer compare --json`` (issue 40) against this file's own numpy recomputation from two
independent ``export``s: the gathered rows (summed over a unit's keys, averaged over its queries), each head's
Jensen–Shannon divergence (every row, mean, max), the difference map and the output's KL agree within 1e-6.
Swapping A and B keeps every divergence and flips the difference; a changed word is reported one-sided; the
errors are one line. Sizes, token ids and vocabularies are read from the exports, never written here."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from explorer.cli import main

TIRED = "The animal didn't cross the street because it was too tired."
WIDE = "The animal didn't cross the street because it was too wide."
TOL = 1e-6


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def exported(capsys, tmp_path, name: str, text: str, preset: str) -> dict[str, np.ndarray]:
    path = tmp_path / f"{name}.npz"
    code, _, err = cli(capsys, "export", text, "-o", path, "--preset", preset)
    assert code == 0, err
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def gathered(weights: np.ndarray, units: list[list[int]]) -> np.ndarray:
    """(U, U): the mean over a unit's queries of the sum over a unit's keys, written as loops; NaN when absent."""
    out = np.full((len(units), len(units)), np.nan)
    for u, queries in enumerate(units):
        for v, keys in enumerate(units):
            if queries and keys:
                out[u, v] = sum(sum(float(weights[i, j]) for j in keys) for i in queries) / len(queries)
    return out


def js(p: np.ndarray, q: np.ndarray) -> float:
    m = (p + q) / 2
    return sum(0.5 * x * math.log(x / y) for x, y in zip(p, m) if x > 0) + sum(
        0.5 * x * math.log(x / y) for x, y in zip(q, m) if x > 0
    )


def kl(p: np.ndarray, q: np.ndarray) -> float:
    return sum(float(x) * math.log(float(x) / float(y)) for x, y in zip(p, q) if x > 0)


@pytest.mark.parametrize("preset_a,preset_b", [("classroom", "classroom"), ("classroom", "seed-toy")])
def test_json_divergences_agree_with_a_numpy_recomputation_from_two_exports(capsys, tmp_path, preset_a, preset_b):
    code, out, err = cli(capsys, "compare", TIRED, WIDE, "--model-a", preset_a, "--model-b", preset_b, "--json")
    assert code == 0, err
    report = json.loads(out)
    a = exported(capsys, tmp_path, "a", TIRED, preset_a)
    b = exported(capsys, tmp_path, "b", WIDE, preset_b)
    units = report["alignment"]["units"]
    for side, arrays in (("a", a), ("b", b)):
        assert sorted(k for u in units for k in u[side]) == list(range(arrays["tokens"].shape[1]))
    layers = sorted({h["layer"] for h in report["heads"]})
    assert len(report["heads"]) == len(layers) * min(
        a["layers.0.attn.weights"].shape[1], b["layers.0.attn.weights"].shape[1]
    )
    for h in report["heads"]:
        name = f"layers.{h['layer']}.attn.weights"
        ga = gathered(a[name][0, h["head"]], [u["a"] for u in units])
        gb = gathered(b[name][0, h["head"]], [u["b"] for u in units])
        rows = [
            js(np.nan_to_num(ga[u]), np.nan_to_num(gb[u])) if units[u]["a"] and units[u]["b"] else None
            for u in range(len(units))
        ]
        for mine, theirs in zip(rows, h["js_rows"]):
            assert (mine is None) == (theirs is None)
            assert mine is None or abs(mine - theirs) <= TOL
        kept = [r for r in rows if r is not None]
        assert abs(sum(kept) / len(kept) - h["js_mean"]) <= TOL and abs(max(kept) - h["js_max"]) <= TOL
        assert rows[h["max_row"]] == pytest.approx(max(kept), abs=TOL)
        if (h["layer"], h["head"]) == (report["difference"]["layer"], report["difference"]["head"]):
            shown = np.array([[np.nan if v is None else v for v in r] for r in report["difference"]["b_minus_a"]])
            assert np.allclose(shown, gb - ga, atol=TOL, equal_nan=True)
    if preset_a == preset_b:  # one vocabulary: KL id by id, after each sentence's last token
        o = report["output"]
        pa, pb = a["probs"][0, -1].astype(np.float64), b["probs"][0, -1].astype(np.float64)
        assert abs(kl(pa, pb) - o["kl_a_b"]) <= TOL and abs(kl(pb, pa) - o["kl_b_a"]) <= TOL


def test_swapping_the_runs_keeps_every_divergence_and_flips_the_difference(capsys):
    runs = [("classroom", TIRED), ("seed-toy", WIDE)]
    reports = []
    for (ma, ta), (mb, tb) in (runs, runs[::-1]):
        code, out, err = cli(capsys, "compare", ta, tb, "--model-a", ma, "--model-b", mb, "--head", "0.1", "--json")
        assert code == 0, err
        reports.append(json.loads(out))
    ab, ba = reports
    by_head = {(h["layer"], h["head"]): h for h in ba["heads"]}
    for h in ab["heads"]:
        g = by_head[(h["layer"], h["head"])]
        assert (h["js_mean"], h["js_max"]) == (g["js_mean"], g["js_max"])
    key_ab = [(tuple(u["a"]), tuple(u["b"])) for u in ab["alignment"]["units"]]
    key_ba = [(tuple(u["b"]), tuple(u["a"])) for u in ba["alignment"]["units"]]
    order = [key_ba.index(k) for k in key_ab]
    d_ab, d_ba = ab["difference"]["b_minus_a"], ba["difference"]["b_minus_a"]
    for i, row in enumerate(d_ab):
        for j, value in enumerate(row):
            other = d_ba[order[i]][order[j]]
            assert (value is None and other is None) or value == -other
    assert ab["output"]["kl_a_b"] == ba["output"]["kl_b_a"] and ab["output"]["js"] == ba["output"]["js"]


def test_a_changed_word_and_a_skipped_space_are_reported(capsys):
    code, out, err = cli(capsys, "compare", TIRED, WIDE, "--model-a", "seed-toy", "--json")
    assert code == 0, err
    alignment = json.loads(out)["alignment"]
    assert [u["text"] for u in alignment["only_a"]] == ["tired"]
    assert [u["text"] for u in alignment["only_b"]] == ["wide"]
    code, out, err = cli(capsys, "compare", "a pen", "--model-a", "induction", "--model-b", "seed-toy", "--json")
    assert code == 0, err
    only_a = json.loads(out)["alignment"]["only_a"]
    assert [u["text"] for u in only_a] == [" "] and only_a[0]["b"] == []  # letters' space: words skip it


def test_text_summary_names_the_one_sided_tokens(capsys):
    code, out, err = cli(capsys, "compare", TIRED, WIDE, "--model-a", "seed-toy")
    assert code == 0, err
    assert "only in A: tired" in out and "only in B: wide" in out and "KL(A||B)" in out


def test_out_writes_a_snapshot_pair_with_its_alignment(capsys, tmp_path):
    folder = tmp_path / "pair"
    code, out, err = cli(capsys, "compare", "This is a pen .", "--random-b", "--out", folder, "--json")
    assert code == 0, err
    manifest = json.loads((folder / "compare.json").read_text(encoding="utf-8"))
    assert manifest["a"]["snapshot"] == "a.npz" and manifest["b"]["random_weights"] is True
    assert manifest["alignment"] == json.loads(out)["alignment"]
    with np.load(folder / "a.npz") as a, np.load(folder / "b.npz") as b:
        assert not np.array_equal(a["layers.0.attn.weights"], b["layers.0.attn.weights"])  # the random twin


@pytest.mark.parametrize(
    "argv,words",
    [
        (["--head", "x"], "--head takes layer.head"),
        (["--head", "7.0"], "is not a head both runs have"),
        (["--top", "0"], "--top must be at least 1"),
    ],
)
def test_errors_are_one_line(capsys, argv, words):
    code, out, err = cli(capsys, "compare", "This is", "--model-a", "seed-toy", *argv)
    assert code != 0 and out == ""
    assert err.startswith("error: ") and words in err and err.count("\n") == 1


def test_out_refuses_a_folder_holding_other_files(capsys, tmp_path):
    (tmp_path / "mine.txt").write_text("keep me", encoding="utf-8")
    code, _, err = cli(capsys, "compare", "This is", "--model-a", "seed-toy", "--out", tmp_path)
    assert code != 0 and "holds other files" in err and (tmp_path / "mine.txt").read_text() == "keep me"


def test_a_second_line_is_not_compared_and_says_so(capsys):
    code, out, err = cli(capsys, "compare", "This is\na pen", "a pen", "--model-a", "seed-toy", "--json")
    assert code == 0 and "run A: only the first of its 2 sentences" in err
    assert json.loads(out)["a"]["text"] == "This is"


def test_a_written_pair_reads_back_and_compares_to_the_same_numbers(capsys, tmp_path):
    from explorer.compare import compare
    from explorer.compare.pair_files import read_pair
    from explorer.compare.report import comparison_json

    folder = tmp_path / "pair"
    code, out, err = cli(capsys, "compare", TIRED, WIDE, "--model-b", "seed-toy", "--out", folder, "--json")
    assert code == 0, err
    written = json.loads(out)
    pair, manifest = read_pair(folder)
    assert pair.a.trace.read_only and manifest["b"]["snapshot"] == "b.npz"
    again = comparison_json(compare(pair))
    assert again["alignment"] == written["alignment"] and again["heads"] == written["heads"]
    assert again["output"]["kl_a_b"] == written["output"]["kl_a_b"]


def test_a_folder_without_a_pair_is_one_line(tmp_path):
    from explorer.compare.pair_files import read_pair
    from explorer.errors import SnapshotError

    with pytest.raises(SnapshotError, match="holds no compare.json"):
        read_pair(tmp_path)
