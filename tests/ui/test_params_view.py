"""Parameters panel: per-matrix counts add up, and follow a change of H."""

from __future__ import annotations


def _count(item) -> int:
    return int(item.text(2).replace(",", ""))


def test_rows_sum_to_the_parameter_count(qtbot, state, trace):
    from explorer.ui.views.params_view import ParamsView

    state.set_trace(trace)
    v = ParamsView(state)
    qtbot.addWidget(v)
    cfg = trace.config
    assert set(v.rows) == set(cfg.parameter_shapes())
    assert sum(_count(item) for item in v.rows.values()) == cfg.parameter_count()
    assert _count(v.total_item) == cfg.parameter_count()
    wq = v.rows["params.layers.0.attn.W_q"]
    assert (wq.text(1), _count(wq), wq.text(3)) == ("(128, 128)", 16384, "64.0 KiB")
    for i in range(v.tree.topLevelItemCount() - 1):  # each group's subtotal is the sum of its rows
        group = v.tree.topLevelItem(i)
        assert _count(group) == sum(_count(group.child(j)) for j in range(group.childCount()))
    assert f"{cfg.parameter_count():,}" in v.summary.text()
    assert "peak" in v.memory.text()


def test_changing_heads_changes_the_query_matrix_row(traced, qtbot):
    from explorer.ui.views.params_view import ParamsView

    state = traced
    v = ParamsView(state)
    qtbot.addWidget(v)
    assert v.rows["params.layers.0.attn.W_q"].text(1) == "(128, 128)"
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_sizes(heads=2)
    assert v.rows["params.layers.0.attn.W_q"].text(1) == "(128, 64)"
    assert _count(v.rows["params.layers.0.attn.W_q"]) == 128 * 64
    assert _count(v.total_item) == state.trace.config.parameter_count()


def test_registered_as_a_dock():
    from explorer.ui.views.registry import view_specs

    spec = next(s for s in view_specs() if s.object_name == "params")
    assert spec.area is not None and spec.title == "Parameters"
