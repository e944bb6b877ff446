# Tensor Anatomy: two commands on a fresh machine.
#   make lab    set up .venv and open JupyterLab on course/
#   make test   set up .venv and run every test (pytest, nbval, grading)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
ASSIGNMENT ?=

.PHONY: setup lab test lint release grade demo clean-instructor

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/course

lint: setup
	$(PY) -m ruff check grader anatomy_widgets tests benchmarks nbgrader_config.py

test: lint
	$(PY) -m pytest tests
	$(PY) -m pytest -p no:cacheprovider --nbval course --nbval-sanitize-with course/nbval_sanitize.cfg

release: setup
	$(PY) -m grader.cli release

grade: setup
	$(PY) -m grader.cli grade $(ASSIGNMENT)

demo: setup
	$(PY) -m grader.cli demo

clean-instructor:
	rm -rf instructor
