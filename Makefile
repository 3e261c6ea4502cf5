# The Makefile's targets are the interface: run, test, lint, bench, invoke.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

SAM_VENV := .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed
# The real SAM translator plus cfn-lint, offline (cfn-lint alone misses SAM errors).
SAM_VALIDATE := SAM_CLI_TELEMETRY=0 $(SAM_VENV)/bin/sam validate --lint --template template.yaml --region us-east-1

.PHONY: run test test-stack test-inprocess checks e2e lint typecheck docs clean bench invoke sam-venv sam-validate build-check

$(STAMP): requirements-dev.txt requirements-clients.txt clients/python/pyproject.toml layers/convmem/requirements.txt constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c constraints.txt
	touch $(STAMP)

venv: $(STAMP)

# SAM CLI pins its own boto3 and click: it gets a virtualenv of its own from requirements-sam.txt
# (every transitive dependency pinned). If it cannot be created, the target fails: never a silent skip.
$(SAM_STAMP): requirements-sam.txt
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-sam.txt -c requirements-sam.txt
	touch $(SAM_STAMP)

sam-venv: $(SAM_STAMP)

## make run: the service on an embedded AWS (moto server) with the offline model
run: $(STAMP)
	$(PY) -m local.run

## make test: every test tier plus the template lint (cfn-lint and sam validate --lint) and the type check.
## Two halves of the tests run side by side (the local-stack tiers wait on subprocesses and HTTP while
## the in-process tiers compute), then the checks; each part prints its output when it ends.
test: $(STAMP) $(SAM_STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-stack test-inprocess checks

# The tiers that start the local stack (moto server and the API as subprocesses on free ports).
STACK_TIERS := tests/integration tests/e2e
test-stack: $(STAMP)
	$(PY) -m pytest $(STACK_TIERS)

# Everything else under tests/ (pytest's testpaths), in-process.
test-inprocess: $(STAMP)
	$(PY) -m pytest $(addprefix --ignore=,$(STACK_TIERS))

checks: $(STAMP) $(SAM_STAMP) typecheck
	$(VENV)/bin/cfn-lint template.yaml
	$(SAM_VALIDATE)

## make e2e: the widget in headless Chromium only (installs chromium and fonts-nanum with apt-get
## when missing; `make test` runs this tier too)
e2e: $(STAMP)
	$(PY) -m pytest tests/e2e

## make bench: what a user pays for per turn, measured on the embedded AWS with the local model
## (a table on stdout, bench/results.json and docs/benchmarks.md; ~10 minutes on 2 cores)
bench: $(STAMP)
	$(PY) -m bench
	PYTHONPATH=layers/convmem $(PY) -m tools.gen_docs

## make docs: the generated parts of docs/ (settings, parameters, alarms, benchmark results);
## tests/unit/test_docs.py fails when they are stale
docs: $(STAMP)
	PYTHONPATH=layers/convmem $(PY) -m tools.gen_docs

## make invoke FUNCTION=api EVENT=events/api_turn.json: one function on one event, in-process, as
## `sam local invoke` would (result on stdout, logs on stderr; see local/invoke.py, docs/development.md).
## ARGS passes more: ARGS="--seed events/api_turn.json", "--no-seed", "--fresh".
invoke: $(STAMP)
	@if [ -z "$(FUNCTION)" ] || [ -z "$(EVENT)" ]; then \
	  echo "usage: make invoke FUNCTION=<logical id or folder> EVENT=events/<file>.json [ARGS=...]" >&2; exit 2; fi
	@$(PY) -m local.invoke "$(FUNCTION)" "$(EVENT)" $(ARGS)

## make build-check: the shared layer built as Lambda runs it (pip for CPython 3.12 on manylinux aarch64, binary
## wheels only, into build/layer): wheel tags, ELF headers of the native modules, every requirement met, the
## unzipped size; then `sam build` where a python3.12 or Docker exists (local/build_check.py, docs/deploy.md)
build-check: $(STAMP) $(SAM_STAMP)
	$(PY) -m local.build_check --sam

## make sam-validate: `sam validate --lint` over template.yaml (creates .venv-sam/ on first use)
sam-validate: $(SAM_STAMP)
	$(SAM_VALIDATE)

## make typecheck: mypy over the layer and every function with the [tool.mypy] config of pyproject.toml
## (part of test and lint; each function on its own: all their modules are named app)
typecheck: $(STAMP)
	$(VENV)/bin/mypy layers/convmem/convmem
	@for f in functions/*/app.py; do $(VENV)/bin/mypy $$f || exit 1; done

lint: checks
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) $(SAM_VENV) .pytest_cache .ruff_cache .mypy_cache tests/e2e/output
