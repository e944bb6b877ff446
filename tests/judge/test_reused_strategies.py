"""Strategies kept per arguments (``grader.hidden.strategies.reused``) draw what new ones do.

A hidden check's verdict, its smallest failing input included, must not depend on
whether a strategy made inside another's draw is a new object or a kept one: the
search draws the same examples either way (derandomized), only the validation of
each new object is saved (a fifth of a judge's CPU, measured with py-spy).
"""

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.hidden import strategies as gs


def test_the_same_arguments_give_the_same_strategy():
    assert gs.shapes(min_dims=2) is gs.shapes(min_dims=2)
    assert gs.layouts(gs.fixed((2, 3)), step=True) is gs.layouts(gs.fixed((2, 3)), step=True)
    assert gs.shapes(min_dims=2) is not gs.shapes(min_dims=1)


def test_equal_values_of_other_types_are_other_arguments():
    # True == 1 and hash(True) == hash(1), yet max_dims=True is not max_dims=1.
    assert gs.fixed(True) is not gs.fixed(1)
    assert gs.sampled((1, 2)) is not gs.sampled((True, 2))


def test_arguments_that_are_no_key_make_a_new_strategy():
    pool, tensor = ["a", "b"], torch.zeros(2)
    assert gs.sampled(pool) is not gs.sampled(pool)
    # A tensor hashes by identity: kept, every tensor drawn would live as long as the judge.
    assert gs.fixed(tensor) is not gs.fixed(tensor)


def _drawn(make_strategy) -> list:
    """What a derandomized search draws from the strategy ``make_strategy()`` makes."""
    seen = []

    @settings(derandomize=True, database=None, max_examples=40, deadline=None)
    @given(st.data())
    def search(data):
        value = data.draw(make_strategy())
        seen.append(repr(value.tolist()) + repr(value.stride()) if hasattr(value, "stride")
                    else repr(value))

    search()
    return seen


def test_kept_strategies_draw_what_new_ones_draw():
    """The same draws from a kept strategy and from the same strategy made anew each
    time (``__wrapped__``: the factory ``reused`` keeps the results of)."""
    kept = _drawn(lambda: gs.layouts(gs.fixed((3, 2)), permute=True, step=True, expand=True))
    new = _drawn(lambda: gs.layouts.__wrapped__(st.just((3, 2)), permute=True, step=True,
                                                expand=True))
    assert kept == new and len(set(kept)) > 5
