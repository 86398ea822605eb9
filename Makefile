# Developer entry points. `make test` is the whole suite, exactly what CI runs (.ci/run).
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
VENV ?= .venv
PY := $(VENV)/bin/python
CORE_CRATES := graphsparse-base graphsparse-graph graphsparse-gspan graphsparse-proj graphsparse-pcst graphsparse-online graphsparse-recovery graphsparse-subgraph graphsparse-ot graphsparse-lattice graphsparse

.PHONY: venv dev release test test-rust test-python lint docs demo bench bench-quick clean

# Virtual environment with the run-time, test, lint and anchor packages.
$(VENV)/.deps: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "maturin>=1.9.4,<2" numpy scipy networkx scikit-learn \
	    pytest hypothesis pytest-timeout ruff mypy pandas matplotlib highspy gspan-mining pcst-fast2 POT cvxpy \
	    grakel rdkit "dask[distributed,dataframe]>=2024.1" \
	    "sphinx>=8.1" "pydata-sphinx-theme>=0.16" "numpydoc>=1.8" "sphinx-gallery>=0.18" "myst-parser>=4"
	touch $@

venv: $(VENV)/.deps

# Editable install, optimised but quick to build (thin LTO).
dev: venv
	source $(VENV)/bin/activate && maturin develop --profile dev-release

# Editable install with the fully optimised (fat LTO) build used for benchmarks.
release: venv
	source $(VENV)/bin/activate && maturin develop --release

test-rust:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --exclude graphsparse-py -q
	for c in $(CORE_CRATES); do
	  if cargo metadata --no-deps --format-version 1 | grep -q "\"name\":\"$$c\""; then
	    if cargo tree -p $$c -e normal | grep -q pyo3; then echo "$$c depends on pyo3"; exit 1; fi
	  fi
	done
	PROPTEST_RNG_SEED=$${PROPTEST_RNG_SEED:-20261122} cargo test --workspace --exclude graphsparse-py --profile dev-release

lint: venv
	$(VENV)/bin/ruff check python tests benches
	$(VENV)/bin/ruff format --check python tests benches

test-python: dev lint
	$(PY) -m mypy.stubtest graphsparse._graphsparse --allowlist tests/stubtest-allowlist.txt
	$(PY) -m pytest tests --doctest-modules python/graphsparse -q \
	    --hypothesis-seed=$${HYPOTHESIS_SEED:-20261124}

test: test-rust test-python

# The documentation site, from scratch (API stubs and gallery regenerated, examples run);
# any warning fails it. Needs no network. Output: docs/_build/html/index.html
docs: dev
	rm -rf docs/_build docs/api/generated docs/auto_examples docs/sg_execution_times.rst
	$(PY) -m sphinx -W --keep-going -b html docs docs/_build/html

demo: dev
	$(VENV)/bin/graphsparse demo

bench: release
	for b in benches/bench_*.py; do $(PY) $$b; done

bench-quick: dev
	for b in benches/bench_*.py; do $(PY) $$b --quick; done

clean:
	cargo clean
	rm -rf $(VENV) .pytest_cache .hypothesis
