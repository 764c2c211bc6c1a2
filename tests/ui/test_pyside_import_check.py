"""PySide6's per-import question ("does this module's source mention PySide6?") is answered from the file's
bytes (explorer/ui/background/pyside_import_check.py): the same answer as PySide6's own inspect-based check, for every
module this process has loaded, and installed before the Qt layer imports PySide6.QtCore."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import explorer.ui  # noqa: F401  # installs the quick check


def _check():
    return sys.modules["shibokensupport.feature"]._mod_uses_pyside


def test_the_qt_layer_installs_the_quick_check():
    assert getattr(_check(), "reads_bytes", False)


def _pysides_answer(check, module):
    try:
        return check.original(module)
    except Exception:  # torch.classes answers every attribute with an error: PySide6 is never asked of it
        return None


def test_its_answer_is_pysides_own_for_every_loaded_module():
    quick = _check()
    expected = {name: _pysides_answer(quick, m) for name, m in list(sys.modules.items()) if m is not None}
    expected = {name: answer for name, answer in expected.items() if answer is not None}
    assert len(expected) > 100
    assert {name: quick(sys.modules[name]) for name in expected} == expected
    assert any(expected.values()) and not all(expected.values())  # both answers occur among them


def test_a_file_that_names_pyside6_uses_it_and_one_that_does_not_does_not(tmp_path):
    quick = _check()
    for name, text, expected in (("uses", "import PySide6.QtCore\n", True), ("plain", "x = 'Qt'\n", False)):
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"quick_check_{name}", path)
        module = importlib.util.module_from_spec(spec)
        assert quick(module) is expected is quick.original(module)


def test_a_fresh_process_has_it_in_place_before_qtcore_is_imported():
    code = (
        "import sys; import explorer.ui; "
        "assert 'PySide6.QtCore' not in sys.modules; "
        "f = sys.modules['shibokensupport.feature']._mod_uses_pyside; print(f.reads_bytes)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "True", out.stderr
