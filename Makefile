# Two commands: `make lab` opens the workbook, `make test` runs every test. Without make (Windows): README "Setup".
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8888
# Where torch comes from. On Linux PyPI's torch is a CUDA build (2,741 MB of downloads with its nvidia
# packages); PyTorch's CPU index has the 192 MB CPU build. macOS and Windows wheels on PyPI are CPU builds
# already, so there the index only has to be reachable. A machine that reaches only PyPI sets
# TORCH_INDEX_URL=https://pypi.org/simple (as .ci/run does).
TORCH_INDEX_URL ?= $(if $(filter Linux,$(shell uname -s)),https://download.pytorch.org/whl/cpu,https://pypi.org/simple)
TORCH   := torch==2.13.0
VERSION := $(shell sed -n 's/^__version__ = "\([^"]*\)".*/\1/p' ragkit/__init__.py)
# The laptops a wheelhouse is for: linux-x86_64 linux-aarch64 macos-arm64 windows-x86_64, and their Pythons
# as X.Y.Z (pip reads 3.11 as 3.11.0, older than ragkit supports). Empty: this machine's platform and Python.
PLATFORMS ?=
PYTHONS   ?=
WHEELHOUSE ?= build/wheelhouse

.PHONY: lab test lint unit notebooks execute bench serve test-langgraph-server clean doctor wheelhouse offline-check release learner reset

$(VENV)/.installed: pyproject.toml constraints.txt jupyter/overrides.json setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# Pinned CPU torch first: a bare `torch` requirement can pull a multi-GB CUDA build.
	$(PY) -m pip install --quiet $(TORCH) --index-url $(TORCH_INDEX_URL)
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	# JupyterLab settings for this environment (widget state saved with outputs, jupyter/README.md); trust.
	$(VENV)/bin/ragkit lab --configure-only
	touch $@

lab: $(VENV)/.installed
	$(VENV)/bin/ragkit lab --port $(PORT)

# Is this machine ready? [ OK ] / [WARN] / [FAIL] lines with the fix for each failure (about 15 s).
doctor: $(VENV)/.installed
	$(VENV)/bin/ragkit doctor

# The offline kit: the ragkit wheel and every wheel for PLATFORMS x PYTHONS in one folder, plus constraints.txt.
# PLATFORMS="linux-x86_64 macos-arm64 windows-x86_64" PYTHONS="3.12.10" make wheelhouse  (other platforms: pip install uv)
wheelhouse: $(VENV)/.installed
	TORCH_INDEX_URL=$(TORCH_INDEX_URL) $(VENV)/bin/ragkit wheelhouse $(WHEELHOUSE) \
		$(foreach p,$(PLATFORMS),--platform $(p)) $(foreach v,$(PYTHONS),--python $(v))

# Install from the wheelhouse into a fresh venv with pip's network off, and time it (this machine's platform).
offline-check: $(VENV)/.installed
	$(VENV)/bin/ragkit wheelhouse $(WHEELHOUSE) --check

# A release: the wheel and the workbook archive (notebooks + data + saved results) of the tagged version.
release: $(VENV)/.installed
	@git diff --quiet HEAD -- || { echo "uncommitted changes: commit them, then tag v$(VERSION)"; exit 2; }
	@[ "$$(git describe --tags --exact-match 2>/dev/null)" = "v$(VERSION)" ] || \
		{ echo "HEAD is not tagged v$(VERSION): git tag -a v$(VERSION) -m 'ragkit $(VERSION)'"; exit 2; }
	$(PY) -m pip wheel --quiet --no-deps --wheel-dir build/release .
	$(VENV)/bin/ragkit workbook --archive build/release
	$(VENV)/bin/ragkit workbook --archive build/release --learner

# Learner copies of the workbook (solutions removed, exercise outputs cleared) in build/learner/.
learner: $(VENV)/.installed
	rm -rf build/learner && $(VENV)/bin/ragkit workbook build/learner --learner

# Put the notebooks back as committed (git checkout -- notebooks): your changes to them are lost.
reset: $(VENV)/.installed
	$(VENV)/bin/ragkit workbook --reset

test: $(VENV)/.installed lint
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(PY) -m pytest -q tests
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(PY) -m pytest -q --nbval notebooks --sanitize-with notebooks/sanitize.cfg -p no:cacheprovider

# Pyflakes, import order and private fields (ruff), and the package's layers (import-linter, pyproject.toml).
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check ragkit tests benchmarks
	$(VENV)/bin/lint-imports

unit: $(VENV)/.installed
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q tests

notebooks: $(VENV)/.installed
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q --nbval notebooks --sanitize-with notebooks/sanitize.cfg -p no:cacheprovider

# Re-run every notebook (or NB=notebooks/03_adaptive_rag.ipynb) in place and save its outputs; then `make notebooks`.
NB ?= $(wildcard notebooks/[0-9]*.ipynb)
execute: $(VENV)/.installed
	for nb in $(NB); do HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 RAGKIT_PROGRESS=0 $(VENV)/bin/jupyter nbconvert --to notebook \
		--execute --inplace --ExecutePreprocessor.timeout=900 "$$nb" || exit 1; done

# The server on http://127.0.0.1:$(SERVE_PORT) (local roles offline; RAGKIT_* variables configure it).
SERVE_PORT ?= 8000
serve: $(VENV)/.installed
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(VENV)/bin/ragkit serve --port $(SERVE_PORT)

# LangGraph's own server (langgraph dev, in memory) on langgraph.json, driven by the official client: installs the
# pinned langgraph-server extra first. Not part of `make test` (a large extra); .ci/run runs it.
test-langgraph-server: $(VENV)/.installed
	$(PY) -m pip install --quiet -c constraints.txt -e '.[langgraph-server]'
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 RAGKIT_TEST_LANGGRAPH_SERVER=1 $(PY) -m pytest -q -s tests/test_langgraph_server.py -p no:cacheprovider

# What a learner sees in a real browser (headless Chromium): every notebook (or NB=03) opened, run, saved and
# reopened in JupyterLab; screenshots in build/screenshots. Slow, so not part of `make test`.
browser: $(VENV)/.installed
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		{ [ "$$(id -u)" = 0 ] && apt-get install -y -qq chromium chromium-driver >/dev/null || \
		  { echo "install Debian's chromium and chromium-driver first"; exit 2; }; }
	$(PY) -c "import selenium" 2>/dev/null || $(PY) -m pip install --quiet -c constraints.txt selenium  # pinned in constraints.txt
	$(PY) browser/check_jupyterlab.py --nb "$(NB_PREFIX)"

bench: $(VENV)/.installed
	HF_HUB_OFFLINE=1 $(VENV)/bin/ragkit bench retrieval --data ../shared/datasets/scifact

clean:
	rm -rf $(VENV) .ragkit_cache
