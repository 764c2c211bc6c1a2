"""The Compare tab never says "add an intervention" under an intervention it lists (issue 38): while both runs
compute it says so, a refused run says why, and the intervened trace shows its KL."""

from __future__ import annotations

from explorer.errors import ConfigError
from explorer.interventions.intervened_run import run_intervened
from explorer.interventions.spec import HeadAblation, Interventions
from explorer.ui.bridge.state import AppState
from tests.ui.live_state import make_trace, preset_bundle

ADD_ONE = "add an intervention"


def test_compare_follows_an_ablation_from_request_to_result(qtbot):
    from explorer.ui.views.interventions.compare_tab import CompareTab

    state = AppState()
    plain = make_trace()
    state.set_trace(plain)
    tab = CompareTab(state)
    qtbot.addWidget(tab)
    tab.resize(420, 700)
    tab.show()
    qtbot.waitExposed(tab)
    assert ADD_ONE in tab.kl_label.text()  # nothing asked yet: the invitation is right

    ablation = HeadAblation(0, 1, "zero")
    state.add_intervention(ablation)
    assert state.interventions.ablations == (ablation,) and tab.list.count() == 1
    assert ADD_ONE not in tab.kl_label.text(), tab.kl_label.text()
    state.set_busy(True)
    qtbot.waitUntil(lambda: "Running" in tab.kl_label.text())
    state.set_busy(False)
    state.report_error("the run was refused: too long for this machine", ConfigError("too long"))
    qtbot.waitUntil(lambda: "too long for this machine" in tab.kl_label.text())
    assert ADD_ONE not in tab.kl_label.text()

    intervened = run_intervened(preset_bundle(), plain.rows[0].text, Interventions(ablations=(ablation,)))
    state.set_trace(intervened)
    qtbot.waitUntil(lambda: "KL" in tab.kl_label.text())
    assert "too long" not in tab.kl_label.text() and tab.table.rowCount() > 0
