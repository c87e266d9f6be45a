"""One module per graph: each exposes ``build_<name>_graph()`` and the node functions it wires together."""
