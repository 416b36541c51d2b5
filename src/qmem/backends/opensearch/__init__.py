"""The scale-out engine: sections in an OpenSearch cluster. The only package that speaks to OpenSearch."""
