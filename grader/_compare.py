"""Comparing a student's number with torch's, NaN and infinity on purpose.

``abs(value - truth) > tolerance`` is False when ``value`` is NaN, so a check
written that way passes a NaN answer. Here a number is close to the truth
only if both are NaN, both are the same infinity, or both are finite and
``|value - truth| <= atol + rtol * |truth|``.
"""

import math

__all__ = ["scalar_close"]


def scalar_close(value: float, truth: float, rtol: float, atol: float = 0.0) -> bool:
    if math.isnan(truth) or math.isnan(value):
        return math.isnan(truth) and math.isnan(value)
    if math.isinf(truth) or math.isinf(value):
        return value == truth
    return abs(value - truth) <= atol + rtol * abs(truth)
