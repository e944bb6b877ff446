"""After grading: where the class stands, per exercise, as a picture."""

import math

__all__ = ["plot_scores"]

_BINS = [0, 0.2, 0.4, 0.6, 0.8, 1.0001]  # the last bin holds full marks


def plot_scores(table: dict[str, dict[str, float]], points: dict[str, float], path,
                title: str) -> None:
    """One histogram per exercise (and the total) of the fraction of points students got."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = [*points, "total"]
    maxima = {**points, "total": sum(points.values())}
    ncols = min(4, len(columns))
    nrows = math.ceil(len(columns) / ncols)
    width, height = 3.2 * ncols, 2.4 * nrows
    fig, axes = plt.subplots(nrows, ncols, squeeze=False, figsize=(width, height))
    # Margins in inches, fixed: tight_layout would measure every label (most of the time).
    fig.subplots_adjust(left=0.45 / width, right=1 - 0.15 / width, bottom=0.5 / height,
                        top=1 - 0.6 / height, wspace=0.3, hspace=0.75)
    for ax, column in zip(axes.flat, columns):
        fractions = [row.get(column, 0.0) / maxima[column] for row in table.values()]
        ax.hist(fractions, bins=_BINS, color="#4c72b0" if column != "total" else "#dd8452",
                edgecolor="white")
        ax.set_title(f"{column} ({maxima[column]:g} pts)", fontsize=9)
        ax.set_xlim(0, 1.0001)
        ax.set_xlabel("fraction of points", fontsize=8)
        ax.yaxis.get_major_locator().set_params(integer=True)
    for ax in list(axes.flat)[len(columns):]:
        ax.set_visible(False)
    fig.suptitle(f"{title}: {len(table)} student{'s' * (len(table) != 1)}", fontsize=11)
    fig.savefig(path, dpi=110)
    plt.close(fig)
