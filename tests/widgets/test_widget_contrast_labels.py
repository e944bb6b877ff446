"""The pure text helpers both widgets draw with: WCAG contrast and labels that fit their box."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anatomy_widgets._broadcast_svg import ROLE_STYLE
from anatomy_widgets._contrast import (
    _PALETTE,
    AA,
    BACKGROUND,
    ERROR_INK,
    INK,
    UNREAD,
    UNREAD_INK,
    contrast_ratio,
    ink_on,
    relative_luminance,
)
from anatomy_widgets._labels import CHAR_EM, MIN_FONT, PAD, box_for, fit_font, fit_text

HEX = st.integers(0, 0xFFFFFF).map(lambda n: f"#{n:06x}")


@pytest.mark.parametrize(
    "fg, bg, ratio",
    [
        ("#000000", "#ffffff", 21.0),  # WCAG's extremes
        ("#ffffff", "#ffffff", 1.0),
        ("#777777", "#ffffff", 4.48),  # the classic grey that just fails AA
        ("#767676", "#ffffff", 4.54),  # ... and the one that just passes
        ("#fff", "#000", 21.0),
    ],
)
def test_contrast_ratio_matches_wcag_reference_values(fg, bg, ratio):
    assert contrast_ratio(fg, bg) == pytest.approx(ratio, abs=0.01)


@given(HEX, HEX)
def test_contrast_is_symmetric_and_between_1_and_21(a, b):
    assert contrast_ratio(a, b) == pytest.approx(contrast_ratio(b, a))
    assert 1 <= contrast_ratio(a, b) <= 21
    assert 0 <= relative_luminance(a) <= 1


@given(HEX)
def test_the_ink_chosen_for_any_fill_keeps_aa(fill):
    assert contrast_ratio(ink_on(fill), fill) >= AA


def test_every_colour_pair_the_widgets_use_keeps_aa():
    pairs = [(ink, fill) for fill, ink in _PALETTE]
    pairs += [(UNREAD_INK, UNREAD), (ERROR_INK, BACKGROUND), (INK, BACKGROUND)]
    pairs += [(INK, fill) for fill, _, _ in ROLE_STYLE.values()]
    worst = min(contrast_ratio(fg, bg) for fg, bg in pairs)
    assert worst >= AA, f"lowest contrast {worst:.2f}:1"


@given(st.integers(1, 20), st.integers(4, 80), st.integers(4, 40))
def test_a_fitted_font_fits_its_box_or_is_zero(length, width, height):
    font = fit_font(length, width, height)
    if font:
        assert MIN_FONT <= font <= 12
        assert length * CHAR_EM * font <= width - 2 * PAD and font <= height - 2 * PAD
    else:
        assert length * CHAR_EM * MIN_FONT > width - 2 * PAD or MIN_FONT > height - 2 * PAD


@given(st.text(min_size=1, max_size=40), st.integers(10, 200))
def test_words_that_do_not_fit_are_cut_with_an_ellipsis(text, width):
    shown, font = fit_text(text, width, 30)
    if font:
        assert len(shown) * CHAR_EM * font <= width - 2 * PAD
        assert shown == text or (shown.endswith("…") and text.startswith(shown[:-1]))


@given(st.integers(1, 12), st.integers(12, 40))
def test_a_box_for_a_label_reads_it_at_the_smallest_font_or_is_the_largest(length, largest):
    box = box_for(length, largest)
    assert box <= largest
    assert fit_font(length, box, box) or box == largest
