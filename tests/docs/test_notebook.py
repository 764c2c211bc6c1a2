"""docs/notebook.ipynb, the guided tour of the Python API (issue 41), runs: executed here offline, cell by cell,
by nbclient on a python3 kernel of this interpreter, it shows no error, its pictures are SVG with no script
and no web address, every rich output also has its plain text (a terminal's IPython shows that), and its
recomputation of a head's weights from q, k and the mask agrees with the trace.

Offline: the kernel starts with the proxies pointing at a closed local port, the Hugging Face libraries told
to stay offline, and a startup file that refuses every connection and name lookup beyond this machine and
records it; a last cell, added here, reads the record back, which must be empty."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extras: .[test]")
nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extras: .[test]")
pytest.importorskip("ipykernel", reason="ipykernel is in the test extras: .[test]")

pytestmark = pytest.mark.slow  # 11-25 s on a busy 2-core machine: a kernel, torch, three models

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"
CELL_TIMEOUT_S = 400  # SmolLM2's first trace reads and dequantises its GGUF file; a loaded machine is slow
RECOMPUTE_RE = re.compile(r"max difference: (\S+)")
PROBE_TAG = "offline probe: "

# Run in the kernel before the notebook: socket connections and name lookups beyond loopback are refused
# and recorded (the kernel's own channels are ZeroMQ's, below Python's socket module, and stay open).
GUARD = """
import ipaddress, socket

OUTSIDE = []

def _local(host):
    if host in ("localhost", "", None):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False

_connect, _connect_ex, _getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

def _guarded(original):
    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _local(address[0]):
            OUTSIDE.append(f"connect {address!r}")
            raise OSError("the notebook test is offline")
        return original(self, address)
    return connect

def getaddrinfo(host, *args, **kwargs):
    if not _local(host):
        OUTSIDE.append(f"lookup {host!r}")
        raise socket.gaierror("the notebook test is offline")
    return _getaddrinfo(host, *args, **kwargs)

socket.socket.connect, socket.socket.connect_ex = _guarded(_connect), _guarded(_connect_ex)
socket.getaddrinfo = getaddrinfo
"""

# The notebook's last cell, added here: what the kernel ran and what it tried to reach.
PROBE = f"""
import json, socket, sys
import explorer
print({PROBE_TAG!r} + json.dumps({{
    "outside": OUTSIDE,
    "guarded": socket.getaddrinfo is getaddrinfo,
    "executable": sys.executable,
    "explorer": explorer.__file__,
}}))
"""

CLOSED_PORT = "http://127.0.0.1:9"  # the discard port: nothing listens, a proxied request fails at once
OFFLINE_ENV = {
    **{name: CLOSED_PORT for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")},
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
}


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook as the kernel left it, and the probe's record."""
    from explorer.weights.installed import locate_smollm2

    assert locate_smollm2() is not None, "the tour traces SmolLM2: `make setup` installs it"
    home = tmp_path_factory.mktemp("ipython")
    (home / "profile_default" / "startup").mkdir(parents=True)
    (home / "profile_default" / "startup" / "00-offline.py").write_text(GUARD, encoding="utf-8")
    work = tmp_path_factory.mktemp("notebook-cwd")  # anything a cell writes lands here, not in the tree
    with pytest.MonkeyPatch.context() as mp:
        for name, value in OFFLINE_ENV.items():
            mp.setenv(name, value)
        for name in ("no_proxy", "NO_PROXY"):
            mp.delenv(name, raising=False)
        mp.setenv("IPYTHONDIR", str(home))
        mp.setenv("PYTHONPATH", str(ROOT), prepend=":")  # the kernel imports this tree's explorer
        mp.setenv("MPLBACKEND", "Agg")
        nb = nbformat.read(NOTEBOOK, as_version=4)
        nb.cells.append(nbformat.v4.new_code_cell(PROBE))
        client = nbclient.NotebookClient(
            nb, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(work)}}
        )
        client.execute()
    probe = _probe(nb.cells.pop())
    return nb, probe


def _probe(cell) -> dict:
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    line = next((line for line in text.splitlines() if line.startswith(PROBE_TAG)), None)
    assert line is not None, f"the offline probe printed nothing: {cell.outputs}"
    return json.loads(line[len(PROBE_TAG) :])


def _outputs(nb):
    return [(cell, out) for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]


def test_the_notebook_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code) >= 10
    assert all(not c.outputs and c.execution_count is None for c in code), "clear the outputs before committing"


def test_it_ran_offline_in_this_interpreter_on_this_tree(executed):
    _nb, probe = executed
    assert probe["guarded"], "the offline guard was not installed in the kernel"
    assert probe["outside"] == [], f"the notebook tried to reach the network: {probe['outside']}"
    assert Path(probe["executable"]).resolve() == Path(sys.executable).resolve()
    assert Path(probe["explorer"]).resolve().is_relative_to(ROOT)


def test_no_cell_fails(executed):
    nb, _probe = executed
    errors = [
        (c.source.splitlines()[0], o.get("ename"), o.get("evalue")) for c, o in _outputs(nb) if o.output_type == "error"
    ]
    assert not errors, errors
    stderr = [o.text for _c, o in _outputs(nb) if o.output_type == "stream" and o.name == "stderr"]
    assert not any("Traceback" in text for text in stderr), stderr


def test_every_picture_is_offline_svg_with_its_text(executed):
    nb, _probe = executed
    rich = [o for _c, o in _outputs(nb) if o.output_type in ("display_data", "execute_result")]
    svgs = [o.data["image/svg+xml"] for o in rich if "image/svg+xml" in o.data]
    assert len(svgs) >= 4  # two traces, two maps (a reader that found none would pass everything below)
    for svg in svgs:
        assert svg.lstrip().startswith("<svg"), svg[:80]
        assert "<script" not in svg.lower() and "http" not in svg.lower(), "a notebook picture reaches outside"
        assert "javascript:" not in svg.lower()
    for out in rich:
        assert out.data.get("text/plain", "").strip(), f"a rich output without its plain text: {sorted(out.data)}"
        assert set(out.data) <= {"text/plain", "image/svg+xml"}, f"an output beyond SVG and text: {sorted(out.data)}"


def test_the_recomputed_weights_match_the_trace(executed):
    nb, _probe = executed
    printed = "".join(o.text for _c, o in _outputs(nb) if o.output_type == "stream" and o.name == "stdout")
    found = RECOMPUTE_RE.findall(printed)
    assert len(found) == 1, printed
    assert float(found[0]) < 1e-6
