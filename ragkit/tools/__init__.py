"""Deprecated, and kept only until the notebooks are redone: the tool loop moved to :mod:`ragkit.core.tools`
(specs and guards), :mod:`ragkit.domains.shop` (the orders, the order tools) and
:mod:`ragkit.offline.tool_planner`. The exercise cells of notebook 06 import ``ORDER_TOOL_SPECS`` from here;
nothing in the package does. Delete this file with that notebook edit.
"""

import warnings

from ragkit.domains.shop.tools import ORDER_TOOL_SPECS

warnings.warn("ragkit.tools is deprecated: import ORDER_TOOL_SPECS from ragkit.domains.shop.tools",
              DeprecationWarning, stacklevel=2)

__all__ = ["ORDER_TOOL_SPECS"]
