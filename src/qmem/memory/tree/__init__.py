"""The bonsai tree: a flat MEMORY.md becomes a root index over domain folders, and back."""
