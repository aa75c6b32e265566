"""A folder cache filled once, safely, by any number of rtlopt processes at the same time.

Used for the dequantized copy of the CPU smoke model's GGUF file: converting it takes ~30 s,
reading the converted copy ~1 s. Several rtlopt processes (parallel benchmark runs, test
workers, a user's two terminals) may all miss the cache at once. The protocol:

1. Try to read the cache without any lock (a complete cache folder only ever appears by an
   atomic rename, so a reader sees all of it or nothing).
2. On a miss take an exclusive lock (``fcntl.flock`` on ``.<name>.lock`` beside the cache;
   the kernel releases it if the holder dies), then read again: another process may have
   filled the cache while this one waited. Only the lock holder converts.
3. Write into a fresh temporary folder (``tempfile.mkdtemp``: unique per process *and* thread)
   beside the cache, then ``os.replace`` it into place. An unreadable cache left by an older
   version is moved aside first, so the cache heals instead of staying broken.

A failure to write the cache is logged and the converted object is still returned: the cache
only ever saves time.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


@contextlib.contextmanager
def folder_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock for ``target`` (a no-op where ``fcntl`` does not exist)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    lock_path = target.with_name(f".{target.name}.lock")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: last writer wins, still atomic
        yield
        return
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _try_read(cache: Path, read: Callable[[Path], T]) -> T | None:
    if not cache.is_dir():
        return None
    try:
        return read(cache)
    except (OSError, ValueError, KeyError) as exc:
        log.warning("ignoring unreadable cache %s: %s", cache, exc)
        return None


def cached_folder(
    cache: Path, read: Callable[[Path], T], make: Callable[[], T], write: Callable[[T, Path], None]
) -> T:
    """Read ``cache``; on a miss build the value once (under a lock) and store it atomically.

    Args:
        cache: The cache folder.
        read: Loads the value from a complete cache folder; raises OSError / ValueError /
            KeyError when the folder is unusable.
        make: Builds the value (the slow conversion).
        write: Writes the value into an empty folder.

    Returns:
        The value, from the cache or freshly made.
    """
    hit = _try_read(cache, read)
    if hit is not None:
        return hit
    with folder_lock(cache):
        hit = _try_read(cache, read)
        if hit is not None:
            return hit
        value = make()
        tmp: Path | None = None
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{cache.name}.", suffix=".tmp", dir=cache.parent))
            write(value, tmp)
            if cache.exists():
                # Unreadable (we hold the lock and just failed to read it): move it aside so
                # the rename below can take its place.
                stale = Path(
                    tempfile.mkdtemp(prefix=f".{cache.name}.", suffix=".stale", dir=cache.parent)
                )
                os.replace(cache, stale / "old")
                shutil.rmtree(stale, ignore_errors=True)
            os.replace(tmp, cache)
            tmp = None
        except (OSError, ValueError) as exc:
            log.warning("could not write the cache %s: %s", cache, exc)
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
        return value
