"""The web domain (see :mod:`ragkit.domains`)."""
