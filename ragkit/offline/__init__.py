"""Offline stand-ins for the LLM roles: general techniques (embeddings, classic IR/NLP), no corpus knowledge."""
