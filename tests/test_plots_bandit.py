"""The bandit plots in ragkit.plots: the Beta density against scipy, fixed figure sizes, clear errors."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from ragkit.plots import CURVES_SIZE, POSTERIORS_SIZE, beta_density, plot_beta_posteriors, plot_curves


@pytest.mark.parametrize("alpha, beta", [(1.0, 1.0), (2.25, 1.75), (0.5, 0.5), (396.75, 265.25), (4.0, 31.0)])
def test_beta_density_matches_scipy(alpha: float, beta: float) -> None:
    stats = pytest.importorskip("scipy.stats")
    x = np.linspace(0.01, 0.99, 50)
    assert np.allclose(beta_density(alpha, beta, x), stats.beta.pdf(x, alpha, beta), rtol=1e-9, atol=1e-12)


def test_beta_density_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="Beta parameters"):
        beta_density(0.0, 1.0, np.array([0.5]))


def test_posterior_plot_has_a_fixed_size_and_one_panel_per_entry() -> None:
    one = plot_beta_posteriors({"start": {"bm25": (1.0, 1.0), "dense": (1.0, 1.0)}})
    four = plot_beta_posteriors({f"after {n}": {"bm25": (1.0 + n, 2.0), "hybrid": (2.0, 1.0 + n)} for n in (0, 50, 200, 800)})
    assert tuple(one.get_size_inches()) == tuple(four.get_size_inches()) == POSTERIORS_SIZE
    assert len(four.axes) == 4 and [len(ax.get_lines()) for ax in four.axes] == [4] * 4  # a density and a mean line per arm
    plt.close("all")
    with pytest.raises(ValueError, match="empty"):
        plot_beta_posteriors({})


def test_curves_plot_draws_each_curve_and_checks_lengths() -> None:
    fig = plot_curves([1, 50, 100], {"hybrid": [0.3, 0.5, 0.7], "bm25": [0.3, 0.4, 0.2]}, "share", "shares",
                      bands={"hybrid": [0.1, 0.1, 0.1]}, marks=[50], hline=0.0)
    assert tuple(fig.get_size_inches()) == CURVES_SIZE
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert labels[:2] == ["hybrid", "bm25"]
    plt.close("all")
    with pytest.raises(ValueError, match="3 points"):
        plot_curves([1, 2, 3], {"x": [1.0]}, "y", "t")
