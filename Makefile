# gpuplat developer targets. `make check` is exactly what CI runs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install tools demo test check lint typecheck docs golden security bench provider-schemas vendored-schemas conformance modules-release modules-lock fidelity wheel-test upstream-check clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,docs]'
	touch $(STAMP)

demo: install
	$(PY) scripts/demo.py

# worksteal: a worker that runs out of tests takes queued ones from the other, so the long
# real-terraform tests do not leave one CPU idle at the end; the ten slowest are listed.
test: install tools
	$(BIN)/pytest -n auto --dist worksteal --durations=10

# The test suite runs the real Graphviz `dot` (the SVG of `gpuplat graph`) and a real Prometheus
# (the queries rendered for KEDA): install them where the machine lets us (root with apt-get),
# else stop with the command that installs them, never skip.
tools:
	@for tool in dot:graphviz prometheus:prometheus; do \
	  cmd=$${tool%%:*}; pkg=$${tool##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	    && echo "installing $$pkg ($$cmd) for the tests" \
	    && { apt-get install -y -qq $$pkg >/dev/null 2>&1 \
	         || { apt-get update -qq >/dev/null && apt-get install -y -qq $$pkg >/dev/null; }; }; } \
	    || true; \
	  command -v $$cmd >/dev/null 2>&1 || { echo "make test needs $$cmd on PATH:" \
	    "sudo apt-get install $$pkg (Debian/Ubuntu), brew install $$pkg (macOS)" >&2; exit 1; }; \
	done

lint: install
	$(BIN)/ruff check src tests bench scripts tools
	$(BIN)/ruff format --check src tests bench scripts tools

typecheck: install
	$(BIN)/mypy

check: lint typecheck test

# The documentation site (mkdocs.yml): its generated sections checked current, then built with
# --strict (a broken link or a page outside the nav fails), into site/.
docs: install
	$(PY) -m gpuplat.docs --check
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

bench: install
	$(PY) bench/startup.py
	$(PY) bench/render.py
	$(PY) bench/plan.py

golden: modules-release
	$(PY) -m tests.support.golden
	$(PY) -m gpuplat.docs

# Cut new module versions from templates/modules/ (real terraform fmt): new folders in
# src/gpuplat/releases/modules/ and their hashes in the lock; refuses a changed template
# whose version was not bumped. modules-lock is the former name.
modules-release: install
	$(PY) -m gpuplat.releases.cut

modules-lock: modules-release

# The stand-in plans check each kubernetes_manifest against its vendored CRD; the last lines
# list the CRD rules per kind those plans were held to (python -m gpuplat.crds).
fidelity: install
	PYTHON=$(PYTHON) bash tools/schema-provider/setup.sh
	$(BIN)/pytest tests/fidelity tests/conformance/test_aws_referee.py -n auto
	$(PY) -m gpuplat.crds
	@$(BIN)/gpuplat conformance tests/golden 2>&1 | tail -1

# checkov (pinned, in its own .venv-security) on every example's rendered Terraform and manifests.
security: install
	PYTHON=$(PYTHON) GPUPLAT_PYTHON=$(PY) $(PYTHON) scripts/security.py

SCHEMA_OUT ?= build/provider-schemas
provider-schemas: install
	PYTHON=$(PY) bash scripts/provider-schemas.sh $(SCHEMA_OUT)

# The trimmed provider schemas shipped in the package (src/gpuplat/conformance/schemas/): rerun
# after a template starts using a new resource or data source type, and commit the result.
vendored-schemas: install
	$(PY) scripts/trim_schemas.py

# The offline schema check of the rendered default example and every golden tree.
conformance: install
	$(BIN)/gpuplat conformance envs modules tests/golden

# Build the wheel, install it in a fresh venv outside the repository, render there.
wheel-test: install
	$(BIN)/pytest -m wheel tests/test_wheel.py

# Vendored upstream facts (CRDs) re-extracted from bare git copies of their repositories
# ($GPUPLAT_UPSTREAM_MIRRORS/<owner>+<name>/repo) must come out byte for byte.
upstream-check: install
	$(BIN)/pytest -m upstream

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis dist build site
