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
