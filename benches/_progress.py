"""The progress bar every benchmark shows: tqdm when installed, else a plain counter line."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

try:
    from tqdm import tqdm
except ImportError:  # pragma: no cover - optional
    tqdm = None


def progress(items: Iterable[Any], desc: str) -> Iterable[Any]:
    """Iterate over ``items`` while showing how far the loop got on standard error."""
    if tqdm is not None:
        return tqdm(items, desc=desc, leave=False)
    items = list(items)

    def gen() -> Iterator[Any]:
        for k, item in enumerate(items):
            print(f"\r{desc}: {k + 1}/{len(items)}", end="", file=sys.stderr, flush=True)
            yield item
        print(file=sys.stderr)

    return gen()
