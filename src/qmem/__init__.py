"""qmem: local BM25 search and memory manager for agents whose memory is Markdown.

Nothing is imported here on purpose: every `qmem` call is a fresh process, and the
search path must not pay for modules it does not use.
"""

__version__ = "0.1.0"
