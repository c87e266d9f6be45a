# Two commands: `make lab` opens the workbook, `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8888

.PHONY: lab test unit notebooks execute bench serve test-langgraph-server clean

$(VENV)/.installed: pyproject.toml constraints.txt jupyter/overrides.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# Pinned CPU torch first: a bare `torch` requirement can pull a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	# JupyterLab settings for this environment (widget state saved with outputs): see jupyter/README.md.
	mkdir -p $(VENV)/share/jupyter/lab/settings && cp jupyter/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $@

lab: $(VENV)/.installed
	@# Trust the workbook's own notebooks: JupyterLab shows saved widgets only in trusted notebooks.
	@$(VENV)/bin/jupyter trust notebooks/[0-9]*.ipynb >/dev/null 2>&1 || true
	@if [ -z "$$DISPLAY" ]; then echo "No display: open the URL printed below in your browser."; fi
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --port=$(PORT) \
		$$( [ -z "$$DISPLAY" ] && echo --no-browser ) $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

test: $(VENV)/.installed
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(PY) -m pytest -q tests
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(PY) -m pytest -q --nbval notebooks --sanitize-with notebooks/sanitize.cfg -p no:cacheprovider

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
