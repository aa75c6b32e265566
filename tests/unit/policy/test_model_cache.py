"""The dequantized-model cache filled by several threads and processes at once.

``cached_folder`` is what ``_load_model`` uses for the GGUF conversion; here the conversion is a
slow stand-in so that the race is wide open and the test stays fast. The real conversion under
two concurrent loaders is in tests/integration/test_policy_transformers.py.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from rtlopt.policy._model_cache import cached_folder


def _read(folder: Path) -> str:
    f = folder / "weights.bin"
    if not f.is_file():
        raise OSError(f"incomplete cache {folder}")
    return f.read_text()


def _write(value: str, folder: Path) -> None:
    (folder / "config.json").write_text("{}")
    time.sleep(0.05)  # a reader must never see config.json without the weights
    (folder / "weights.bin").write_text(value)


def _leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.parent.iterdir() if p.name.endswith((".tmp", ".stale")))


def test_threads_convert_once_and_all_read_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "models" / "m-abc"
    made: list[int] = []
    lock = threading.Lock()

    def make() -> str:
        with lock:
            made.append(1)
        time.sleep(0.3)
        return "dequantized"

    results: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(cached_folder(cache, _read, make, _write))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == ["dequantized"] * 6 and len(made) == 1
    assert _read(cache) == "dequantized" and _leftovers(cache) == []


_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from rtlopt.policy._model_cache import cached_folder

    cache, counter = Path(sys.argv[1]), Path(sys.argv[2])

    def read(folder):
        f = folder / "weights.bin"
        if not f.is_file():
            raise OSError("incomplete")
        return f.read_text()

    def make():
        with open(counter, "a") as fh:
            fh.write("converted\\n")
        time.sleep(0.5)
        return "dequantized"

    def write(value, folder):
        (folder / "config.json").write_text("{}")
        time.sleep(0.1)
        (folder / "weights.bin").write_text(value)

    print(cached_folder(cache, read, make, write))
""")


def test_processes_convert_once_and_all_read_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "models" / "m-abc"
    counter = tmp_path / "conversions.txt"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(cache), str(counter)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _, e in outs]
    assert [o.strip() for o, _ in outs] == ["dequantized"] * 4
    assert counter.read_text().splitlines() == ["converted"]
    assert _read(cache) == "dequantized" and _leftovers(cache) == []


def test_an_unreadable_cache_is_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "m"
    cache.mkdir()
    (cache / "config.json").write_text("{}")  # an old, half-written cache: no weights
    assert cached_folder(cache, _read, lambda: "fresh", _write) == "fresh"
    assert _read(cache) == "fresh" and _leftovers(cache) == []


def test_a_failed_write_still_returns_the_value(tmp_path: Path) -> None:
    cache = tmp_path / "m"

    def broken(value: str, folder: Path) -> None:
        raise OSError("disk full")

    assert cached_folder(cache, _read, lambda: "v", broken) == "v"
    assert not cache.exists() and _leftovers(cache) == []


@pytest.mark.parametrize("hit", [True, False])
def test_a_complete_cache_is_read_without_converting(tmp_path: Path, hit: bool) -> None:
    cache = tmp_path / "m"
    if hit:
        cache.mkdir()
        _write("cached", cache)

    def make() -> str:
        return "made"

    assert cached_folder(cache, _read, make, _write) == ("cached" if hit else "made")
