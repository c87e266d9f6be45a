"""The core of ragkit: retrieval (the scored-search protocol, BM25, dense, hybrid, rerankers, chunking),
embeddings, chat models, one ``nlp`` module, the contract every graph keeps (input policy, entry node,
tracing, the result fields) and locating the data files. It imports nothing else of ragkit but
:mod:`ragkit.defaults`."""
