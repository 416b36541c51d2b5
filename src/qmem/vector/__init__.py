"""The optional vector tier: offline embeddings beside the BM25 index, vector search, fusion.

Nothing here is imported by the default commands; the models come from optional extras."""
