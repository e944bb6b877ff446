"""environment.yml (conda/Binder users) lists exactly pyproject's dependencies."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from support import ROOT


def _pyproject_dependencies() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["project"]["dependencies"])


def _environment_pip_dependencies() -> set[str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_lists = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(pip_lists) == 1, "environment.yml needs exactly one pip: section"
    return {req for req in pip_lists[0] if not req.startswith("-e")}


def test_environment_yml_matches_pyproject():
    missing = _pyproject_dependencies() - _environment_pip_dependencies()
    extra = _environment_pip_dependencies() - _pyproject_dependencies()
    assert not missing and not extra, f"environment.yml missing {missing}, extra {extra}"


def test_torch_is_pinned_for_the_verified_on_stamp():
    assert "torch==2.13.0" in _pyproject_dependencies()


def _without_comments(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("#")]


def test_binder_builds_the_environment_then_installs_the_course():
    """repo2docker builds binder/environment.yml before the repository is copied in, so an
    `-e .` there would fail; postBuild, which runs after the copy, installs the course."""
    top = _without_comments(ROOT / "environment.yml")
    assert top.count("      - -e .") == 1
    assert _without_comments(ROOT / "binder" / "environment.yml") == \
        [line for line in top if line != "      - -e ."]
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert "pip install --no-deps -e ." in _without_comments(post_build)


def test_nbgrader_lab_extension_is_installed_and_compatible():
    # jupyterlab>=4.4, notebook>=7.4: what nbgrader 0.9.6's extension was built for.
    listed = subprocess.run([sys.executable, "-m", "jupyterlab.labextensions", "list"],
                            capture_output=True, text=True, check=True)
    line = next(line for line in (listed.stdout + listed.stderr).splitlines()
                if "@jupyter/nbgrader" in line)
    assert "enabled" in line and "OK" in line, line
