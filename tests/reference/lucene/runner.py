"""Compile and run QmemLucene.java: Lucene itself, configured like qmem's OpenSearch template.

Java and Debian's Lucene 8 jars (`default-jdk-headless`, `liblucene8-java`) are installed by
.ci/run, so in CI (CI set) a missing JDK fails the test loudly; on a developer machine
without them the Lucene parity tests are skipped with the command that installs them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).with_name("QmemLucene.java")
JARS = ("lucene-core-8", "lucene-analyzers-common-8")
INSTALL = "apt-get install default-jdk-headless liblucene8-java"


def classpath() -> str | None:
    folder = os.environ.get("QMEM_LUCENE_JARS", "/usr/share/java")
    found = []
    for prefix in JARS:
        jars = sorted(glob.glob(os.path.join(folder, f"{prefix}*.jar")))
        if not jars:
            return None
        found.append(jars[-1])
    return os.pathsep.join(found)


def require_lucene() -> str:
    """The classpath, or skip (dev machine) / fail (CI) when Java or Lucene is missing."""
    cp = classpath()
    missing = [name for name, ok in (("javac", shutil.which("javac")), ("java", shutil.which("java")),
                                     ("Lucene 8 jars", cp)) if not ok]
    if missing:
        message = f"{', '.join(missing)} not found; {INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(f"CI installs Java and Lucene (.ci/run) but {message}")
        pytest.skip(message)
    return cp  # type: ignore[return-value]


class Lucene:
    def __init__(self, classes: Path, cp: str) -> None:
        self.cp = f"{classes}{os.pathsep}{cp}"

    def run(self, *args: str) -> None:
        subprocess.run(["java", "-Xmx1g", "-cp", self.cp, "QmemLucene", *args], check=True, timeout=300)


def compile_lucene(folder: Path) -> Lucene:
    cp = require_lucene()
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-nowarn", "-d", str(folder), "-cp", cp, str(SOURCE)], check=True, timeout=300)
    return Lucene(folder, cp)
