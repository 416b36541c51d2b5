"""The local engine: a Tantivy index per config. The only package that imports `tantivy`."""
