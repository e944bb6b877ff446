"""What an instructor sees while and after grading: progress, and score plots."""

import io
import sys

import pytest

from grader._progress import ProgressLine
from grader.batch._report import plot_scores


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _count_three(monkeypatch, stream):
    monkeypatch.setattr(sys, "stderr", stream)
    progress = ProgressLine(3, "notebooks")
    for _ in range(3):
        progress.advance()
    progress.close()


def test_on_a_terminal_a_progress_line_counts_notebooks_in_place(monkeypatch, capsys):
    terminal = _Terminal()
    _count_three(monkeypatch, terminal)
    updates = terminal.getvalue().split("\r")[1:]
    assert [u.split(" notebooks")[0].split()[-1] for u in updates] == ["1/3", "2/3", "3/3", "3/3"]
    assert "/min" in updates[-1] and "ETA" in updates[-1]
    assert terminal.getvalue().endswith("\n") and capsys.readouterr().out == ""


def test_without_a_terminal_plain_lines_are_printed(monkeypatch, capsys):
    _count_three(monkeypatch, io.StringIO())
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" notebooks")[0].split()[-1] for line in lines] == ["1/3", "2/3", "3/3"]


def test_the_score_plot_has_one_panel_per_exercise_and_the_total(tmp_path, monkeypatch):
    import matplotlib.figure

    saved = []
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig",
                        lambda fig, path, **kw: saved.append(fig))
    table = {"a": {"x": 2.0, "y": 0.0, "total": 2.0}, "b": {"x": 1.0, "y": 3.0, "total": 4.0}}
    plot_scores(table, {"x": 2.0, "y": 3.0}, tmp_path / "p.png", "demo")
    panels = [ax for ax in saved[0].axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["x (2 pts)", "y (3 pts)", "total (5 pts)"]
    heights = [[round(bar.get_height()) for bar in ax.patches] for ax in panels]
    # fractions: x = 1.0, 0.5; y = 0.0, 1.0; total = 0.4, 0.8 (bins of 0.2)
    assert heights == [[0, 0, 1, 0, 1], [1, 0, 0, 0, 1], [0, 0, 1, 0, 1]]


@pytest.mark.parametrize("students", [1, 30])
def test_a_real_plot_is_written(tmp_path, students):
    table = {f"s{i}": {"x": i % 3, "total": i % 3} for i in range(students)}
    plot_scores(table, {"x": 2.0}, tmp_path / "p.png", "demo")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
