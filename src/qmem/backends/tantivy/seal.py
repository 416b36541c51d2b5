"""The seal's record, read without the writer: a thorough health check (doctor) compares the
segment files against the checksums the last verified refresh sealed, and the searcher must not
import the writer (layers: searcher below writer)."""

from __future__ import annotations

import os

from ...base.layout import version_dir

SEAL_VERSION = 2  # 2: with the segment files' verified checksums
SEAL_NAME = "tantivy.seal"  # in the version folder, beside (never inside) the Tantivy folder


def sealed_checksums(data_dir: str) -> dict:
    """The segment files' checksums the seal recorded (name → (size, mtime, ctime, inode, crc)), {} when none."""
    import marshal

    try:
        with open(os.path.join(version_dir(data_dir), SEAL_NAME), "rb") as handle:
            version, _, _, verified = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return verified if version == SEAL_VERSION and type(verified) is dict else {}
