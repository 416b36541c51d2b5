"""How people and agents reach qmem: the command line, the MCP server, the qmd-compatible command. They parse and render; the tiers below decide."""
