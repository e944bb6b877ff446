"""Plausible wrong answers, one module per chapter, each named by its mistake.

``grader/hidden/<chapter>/wrong_answers.py``'s ``WRONG_ANSWERS[exercise]`` lists whole
answer cells; each names the mistake it makes in its first ``# Mistake: ...`` comment.
The tests grade each as a student's (each must lose points); the judge runs them on the
inputs a student failed, to name the student's misconception
(``grader.judge._misconceptions``, through ``named_wrong_answers`` here).
They live under ``grader/hidden``: the student edition never ships them, and the
student's process cannot read them. Reading them imports no torch.
"""

import importlib
import re

__all__ = ["mistake_name", "named_wrong_answers"]

# "# Mistake: ...", or "# Mistake (rules): ..." for a kind of mistake.
_MISTAKE = re.compile(r"#\s*Mistake(?:\s*\([^)]*\))?:")
# A sentence ends at . ! or ? (a closing quote or bracket may follow) before a space or the end.
_SENTENCE_END = re.compile(r"[.!?][\"')]?(?=\s|$)")


def mistake_name(source: str) -> str | None:
    """The first sentence of the first ``# Mistake:`` comment (its continuation lines
    included), without its final full stop; None without one."""
    lines = source.splitlines()
    for at, line in enumerate(lines):
        found = _MISTAKE.search(line)
        if not found:
            continue
        parts = [line[found.end():].strip()]
        for more in lines[at + 1:]:
            if not more.strip().startswith("#"):
                break
            parts.append(more.strip().lstrip("#").strip())
        text = " ".join(filter(None, parts))
        end = _SENTENCE_END.search(text)
        sentence = text[:end.end()] if end else text
        return sentence.removesuffix(".").strip() or None
    return None


def named_wrong_answers(assignment: str) -> dict[str, list[tuple[str, str]]]:
    """exercise → [(name of its mistake, answer cell)] for ``assignment``
    (``01_storage_strides`` reads ``storage_strides/wrong_answers.py``); {} for a chapter
    without any."""
    chapter = assignment.split("_", 1)[-1]
    hidden = __name__.rpartition(".")[0]  # grader.hidden
    try:
        module = importlib.import_module(f"{hidden}.{chapter}.wrong_answers")
    except ModuleNotFoundError:
        return {}
    return {exercise: [(mistake_name(source) or f"wrong answer #{k + 1}", source)
                       for k, source in enumerate(sources)]
            for exercise, sources in module.WRONG_ANSWERS.items()}
