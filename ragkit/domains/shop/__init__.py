"""The shop domain: the orders table, its four order tools and the prompt of the tool loop (see :mod:`ragkit.domains`)."""
