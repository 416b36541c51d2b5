"""How files become sections in a backend and questions become hits: scan, refresh, search, get, collections."""
