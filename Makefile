# The Makefile's targets are the interface: run, test, lint, bench, invoke.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test e2e lint clean bench

$(STAMP): requirements-dev.txt layers/convmem/requirements.txt constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c constraints.txt
	touch $(STAMP)

venv: $(STAMP)

## make run: the service on an embedded AWS (moto server) with the offline model
run: $(STAMP)
	$(PY) -m local.run

## make test: every test tier plus the template lint
test: $(STAMP)
	$(VENV)/bin/cfn-lint template.yaml
	$(PY) -m pytest

## make e2e: the widget in headless Chromium only (installs chromium and fonts-nanum with apt-get
## when missing; `make test` runs this tier too)
e2e: $(STAMP)
	$(PY) -m pytest tests/e2e

## make bench: what a user pays for per turn, measured on the embedded AWS with the local model
## (a table on stdout and bench/results.json; ~5-10 minutes on 2 cores; see README "Benchmarks")
bench: $(STAMP)
	$(PY) -m bench

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/cfn-lint template.yaml

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache tests/e2e/output
