"""Helpers the benchmark scripts share."""

from __future__ import annotations

import json
import os
import statistics
import time


def write_results(out: str, name: str, text: str, data: object) -> None:
    """Print the Markdown table and keep it, with the raw numbers as JSON, under `out`."""
    print(text)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)


def median_ms(fn, runs: int = 30) -> float:  # noqa: ANN001
    """Median wall time of `fn()` in milliseconds, after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000
