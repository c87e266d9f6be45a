"""The menu domain (see :mod:`ragkit.domains`)."""
