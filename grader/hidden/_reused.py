"""Strategies kept per arguments: one object per call, however often a draw makes it.

A hypothesis strategy is immutable and draws the same whichever object it is, but a new
one is validated and labelled at its first draw. Made inside another strategy's draw
(``layouts`` makes its dim plans for each shape it draws), that was a fifth of a judge's
CPU (py-spy over 30 notebooks); kept, each chapter's first notebook costs a fifth less,
with the same examples drawn (``tests/judge/test_reused_strategies.py``).
"""

import functools

import torch

__all__ = ["reused"]


def reused(factory):
    """``factory`` (it makes a strategy) making one strategy per arguments, kept; arguments
    that cannot be a key (a list, a tensor) make a new one each time."""
    kept = {}

    @functools.wraps(factory)
    def make(*args, **kwargs):
        try:
            key = _typed(args), _typed(tuple(sorted(kwargs.items())))
            return kept[key]
        except TypeError:
            return factory(*args, **kwargs)
        except KeyError:
            kept[key] = made = factory(*args, **kwargs)
            return made

    return make


def _typed(value):
    """``value`` as a key that tells types apart, inside tuples too: shapes(max_dims=True)
    is not shapes(max_dims=1), nor (True, 2) (1, 2), though each pair hashes alike."""
    if type(value) is tuple:
        return tuple, tuple(map(_typed, value))
    if isinstance(value, torch.Tensor):  # hashed by identity: kept, each would live on
        raise TypeError("a tensor is no key")
    return type(value), value
