# The two commands a newcomer needs: `make run` and `make test`.
# `make setup` is the idempotent install step both use.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# The CPU wheel of torch lies on this machine's disk; an unpinned torch would pull a multi-GB CUDA build.
TORCH_PIN ?= torch==2.13.0
STAMP  := $(VENV)/.installed

.PHONY: setup run test bench clean translations screenshots

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PIP) install --quiet "$(TORCH_PIN)"
	$(PIP) install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/attention-explorer gui

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist *.egg-info

# Train the shipped presets (classroom, japanese, induction) into resources/presets/: a few minutes each.
.PHONY: presets
presets: setup
	$(PY) -m explorer.train.presets_build

# Interface translations: lupdate gathers every tr()/translate() string of explorer/ui into the Japanese .ts
# (translations already there are kept; strings no longer in the code are dropped), lrelease builds the .qm
# the app loads. Both are committed, so installing needs no Qt tools; tests/ui/test_i18n.py checks they agree.
TS_JA := resources/translations/explorer_ja.ts
QM_JA := resources/translations/explorer_ja.qm

translations: setup
	$(VENV)/bin/pyside6-lupdate -silent -locations none -no-obsolete -source-language en -target-language ja \
		$$(find explorer/ui -name '*.py' -not -path '*/__pycache__/*' | LC_ALL=C sort) -ts $(TS_JA)
	$(VENV)/bin/pyside6-lrelease -silent $(TS_JA) -qm $(QM_JA)
