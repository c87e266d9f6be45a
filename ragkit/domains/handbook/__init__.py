"""The handbook domain (see :mod:`ragkit.domains`)."""
