# Tensor Anatomy: two commands on a fresh machine.
#   make lab    set up .venv and open JupyterLab on course/
#   make test   set up .venv and run every test (pytest, nbval, grading)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
ASSIGNMENT ?=

.PHONY: setup lab test lint mutants bench release grade demo validate export new-exercise student-edition translations clean-instructor

# The first set-up takes minutes, with progress shown. uv installs the same pins as pip
# (an identical pip freeze) in less time: measured on a fresh 2-core machine, 176 s with pip,
# 134 s with uv compiling bytecode as pip does (README, "Set-up times"). Where uv cannot
# be had, pip does it all. A wheel folder pip is told of ($PIP_FIND_LINKS) serves uv too.
UV := $(VENV)/bin/uv
UV_LINKS := $(if $(PIP_FIND_LINKS),--find-links $(PIP_FIND_LINKS))
PIP_INSTALL := $(PY) -m pip install --disable-pip-version-check --progress-bar on
$(STAMP): pyproject.toml
	@echo "setting up $(VENV): torch, JupyterLab, nbgrader and their dependencies (a few minutes)"
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) uv && $(UV) pip install --python $(PY) --compile-bytecode $(UV_LINKS) \
		-e '.[dev]' || $(PIP_INSTALL) -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# JupyterLab refuses root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# make lab PORT=9999 TOKEN=secret BROWSER=no: another port, a fixed token, no browser.
PORT ?= 8888
LAB_OPTIONS := --port=$(PORT) $(if $(TOKEN),--IdentityProvider.token=$(TOKEN)) \
	$(if $(filter no,$(BROWSER)),--no-browser)

# KernelMetadataContents: opening a notebook does not mark it modified (grader/lab).
lab: setup
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) $(LAB_OPTIONS) --ServerApp.root_dir="$(CURDIR)" \
		--ServerApp.contents_manager_class=grader.lab.KernelMetadataContents \
		--LabApp.default_url=/lab/tree/course/00_start.ipynb

lint: setup
	$(PY) -m ruff check grader anatomy_widgets tests benchmarks deploy nbgrader_config.py

# pytest runs on every core (pytest-xdist), a test file to a worker so that its module
# fixtures are made once; files marked "alone" (GiBs of memory, or the checkout's modes
# changed for other users) after, by themselves; TEST_WORKERS=1: one process. nbval runs
# one lesson at a time: lessons time things, and beside another lesson 6 measured anomaly
# mode under twice as slow. Times: README, "Test times".
TEST_WORKERS ?= auto
XDIST := $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

test: lint
	$(PY) -m pytest tests $(XDIST) -m "not alone"
	$(PY) -m pytest tests -m alone
	$(PY) -m pytest -p no:cacheprovider --nbval course --nbval-sanitize-with course/nbval_sanitize.cfg
	$(PY) tests/mutation/gate.py

# Each deliberate breakage in tests/mutation/mutants.py must fail its tests (about 2 minutes).
mutants: setup
	$(PY) tests/mutation/gate.py

# STUDENTS=30: submissions graded by stock nbgrader and by us (several minutes).
STUDENTS ?= 30
bench: setup
	$(PY) benchmarks/widgets_bench.py
	$(PY) benchmarks/grading_bench.py --students $(STUDENTS) --pieces

release: setup
	$(PY) -m grader.cli release

# The course in other languages (course/zh-CN/, grader/translation): each catalogue refreshed
# from its English lesson, then each lesson whose catalogue is complete written and run (one
# at a time, under /tmp/lesson-exec.lock); fails while a catalogue has entries to translate.
# The exercises too: exercises/zh-CN/po/ refreshed from solutions/, exercises/zh-CN/ released
# by nbgrader after the lessons (a task links the translated lesson once there is one).
translations: setup
	$(PY) -m grader.translation update
	$(PY) -m grader.translation build

grade: setup
	$(PY) -m grader.cli grade $(ASSIGNMENT)

# The grades for an LMS in instructor/export/ (make grade writes them too): wide, Canvas, Moodle.
export: setup
	$(PY) -m grader.cli export

demo: setup
	$(PY) -m grader.cli demo

# make validate NB=exercises/01_storage_strides/01_storage_strides.ipynb: a dry run, its
# points and a total (.venv/bin/python -m grader validate NB: the same, without make's noise).
validate: setup
	@$(PY) -m grader validate $(NB)

# make new-exercise ASSIGNMENT=01_storage_strides NAME=my_function [POINTS=3]: the stubs of a
# new exercise in its four files, and what to fill in (README, "Adding an exercise").
new-exercise: setup
	$(if $(and $(ASSIGNMENT),$(NAME)),,$(error usage: make new-exercise ASSIGNMENT=01_storage_strides NAME=my_function [POINTS=2]))
	$(PY) -m grader.cli new-exercise $(ASSIGNMENT) $(NAME) $(if $(POINTS),--points $(POINTS))

# make student-edition OUT=../tensor-anatomy-student: the course as students get it, a git
# repository with its own make lab and make test, and no answer in it. LANGUAGE=zh-CN: for
# Chinese students (its README in Chinese, make lab opens course/zh-CN/00_start.ipynb).
student-edition: setup
	$(if $(OUT),,$(error usage: make student-edition OUT=DIR [LANGUAGE=zh-CN]))
	$(PY) -m grader.cli student-edition $(OUT) $(if $(LANGUAGE),--language $(LANGUAGE))

clean-instructor:
	rm -rf instructor
