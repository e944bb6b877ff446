"""environment.yml (conda/Binder users) lists exactly pyproject's dependencies."""

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


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
