"""The statute domain (see :mod:`ragkit.domains`)."""
