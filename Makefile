# Developer entry points. `make test` is the whole suite, exactly what CI runs (.ci/run).
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
VENV ?= .venv
PY := $(VENV)/bin/python
CORE_CRATES := graphsparse-base graphsparse-graph graphsparse-gspan graphsparse-proj graphsparse-pcst graphsparse-online graphsparse-recovery graphsparse-subgraph graphsparse-ot graphsparse-lattice graphsparse

.PHONY: venv dev release wheel test test-rust test-python test-oldest lint docs demo bench bench-quick clean

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

test: test-rust test-python docs test-oldest

# The documentation site, from scratch (API stubs and gallery regenerated, examples run);
# any warning fails it. Needs no network. Output: docs/_build/html/index.html
docs: dev
	rm -rf docs/_build docs/api/generated docs/auto_examples docs/sg_execution_times.rst
	$(PY) -m sphinx -W --keep-going -b html docs docs/_build/html

demo: dev
	$(VENV)/bin/graphsparse demo

# The abi3 wheel (one file for every CPython >= 3.11) into dist/, fully optimised (fat LTO), as
# users get it. With WHEEL_PROFILE=dev-release it links what `make dev` compiled instead (about a
# second after `make dev`, not a second full build): test-oldest does so, as do the wheel tests
# of `make test` (tests/freshenv.py).
WHEEL_PROFILE ?= release
WHEEL_DIR ?= dist
wheel: venv
	rm -f $(WHEEL_DIR)/graphsparse-*.whl
	$(VENV)/bin/maturin build --profile $(WHEEL_PROFILE) -i $(PY) -o $(WHEEL_DIR)

# The suite on exactly the lowest versions pyproject.toml declares (.ci/lowest_pins.py reads
# them): the run-time dependencies, the test extra and the extras named in OLDEST_EXTRAS, with
# the wheel installed without dependencies, in a new .venv-oldest. The independent
# implementations some tests compare with (OLDEST_ORACLES) come at whatever version suits those
# pins. Not run: the README and wheel tests (they build and install the wheel themselves).
OLDEST_VENV ?= .venv-oldest
OLDEST_PYTHON ?= python3.11
OLDEST_EXTRAS := pandas matplotlib highspy rdkit dask
OLDEST_ORACLES := cvxpy POT pcst-fast2 grakel gspan-mining
# matplotlib before 3.10.x calls the camelCase names that pyparsing 3.3 deprecates (a warning)
OLDEST_CONSTRAINTS := "pyparsing<3.3"
OLDEST_WHEELS := target/wheels-oldest
test-oldest:
	$(MAKE) wheel WHEEL_PROFILE=dev-release WHEEL_DIR=$(OLDEST_WHEELS)
	rm -rf $(OLDEST_VENV)
	$(OLDEST_PYTHON) -m venv $(OLDEST_VENV)
	pins="$$($(OLDEST_PYTHON) .ci/lowest_pins.py $(OLDEST_EXTRAS))"
	echo "lowest declared versions: $$pins"
	$(OLDEST_VENV)/bin/python -m pip install -q --disable-pip-version-check --only-binary=:all: \
	    $$pins $(OLDEST_ORACLES) $(OLDEST_CONSTRAINTS)
	$(OLDEST_VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps \
	    $(OLDEST_WHEELS)/graphsparse-*.whl
	$(OLDEST_VENV)/bin/python -m pip check --disable-pip-version-check
	$(OLDEST_VENV)/bin/python .ci/lowest_pins.py --check $(OLDEST_EXTRAS)
	$(OLDEST_VENV)/bin/python -c 'import graphsparse, sys; \
	    assert graphsparse.__file__.startswith(sys.prefix), graphsparse.__file__'
	$(OLDEST_VENV)/bin/python -m pytest tests -q -p no:cacheprovider \
	    --ignore=tests/test_readme_scripts.py --ignore=tests/test_wheel.py \
	    --hypothesis-seed=$${HYPOTHESIS_SEED:-20261124}

bench: release
	for b in benches/bench_*.py; do $(PY) $$b; done

bench-quick: dev
	for b in benches/bench_*.py; do $(PY) $$b --quick; done

clean:
	cargo clean
	rm -rf $(VENV) $(OLDEST_VENV) .pytest_cache .hypothesis
