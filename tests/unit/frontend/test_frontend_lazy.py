"""Lazy, indexed loading (issue 22, item 5): only the files the target needs are parsed; the
module index is cached per file and refreshed when a file changes; any other repository
module is still found (parsed on first use) for a candidate that instantiates it."""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design, module_users, with_module
from rtlopt.frontend._index import build_index
from tests.c910_tree import write_tree


def _git(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def test_only_the_needed_files_of_a_filelist_tree_are_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tree = write_tree(tmp_path / "c910", n_files=60)
    _git(tree.root)
    project = ProjectConfig(filelists=(tree.filelist,))
    d = load_design(tree.target, None, project)
    assert d.target.name == "ct_lza_top" and d.submodules == ("ct_lza_enc",)
    assert len(d.sources.files) == tree.files > 50
    assert sorted(d.modules) == ["ct_lza_enc", "ct_lza_top"]  # parsed: the closure only
    # the same answer as parsing everything
    full = load_design(
        tree.target, None, ProjectConfig(filelists=(tree.filelist,), lazy_parse=False)
    )
    assert full.closure == d.closure and full.target == d.target
    assert len(full.modules) > 50
    # any other module is parsed on first use, with the project's macros and headers
    other = next(n for n in full.modules if n.startswith("ct_ifu_"))
    assert other in d.modules
    assert d.modules[other].port("dout").width == 16  # `CT_MSB from the prelude header
    assert "no_such_module" not in d.modules
    # picklable (Ray workers receive the design)
    again = pickle.loads(pickle.dumps(d.modules))
    assert other in again
    # replacing the target (clock/reset overrides) keeps the rest of the repository reachable
    used = {i for u in full.modules.values() for i in u.instances}
    other2 = next(n for n in sorted(used) if n not in list(d.modules) and n.startswith("ct_"))
    replaced = with_module(d.modules, d.target)
    assert replaced[d.target.name] is d.target and other2 in replaced
    # every user of a module, also in files nothing parsed yet
    users = {u.name for u in full.modules.values() if other2 in u.instances}
    assert users
    assert set(module_users(load_design(tree.target, None, project).modules, other2)) == users


def test_index_is_cached_and_follows_edits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    files = []
    for i in range(5):
        f = tmp_path / f"m{i}.v"
        f.write_text(f"module m{i}; endmodule\n")
        files.append(f)
    with caplog.at_level(logging.DEBUG, logger="rtlopt.frontend._index"):
        idx = build_index(tmp_path, files)
        assert idx.files("m3") == (files[3],)
        assert "(5 read)" in caplog.text
        caplog.clear()
        build_index(tmp_path, files)
        assert "(0 read)" in caplog.text  # warm: one stat per file
        caplog.clear()
        files[3].write_text("module renamed; endmodule\n// longer\n")
        os.utime(files[3], ns=(1, 1))  # even an old mtime: size and ctime changed
        idx = build_index(tmp_path, files)
        assert "(1 read)" in caplog.text
    assert idx.files("m3") == () and idx.files("renamed") == (files[3],)


def test_candidate_may_instantiate_a_module_the_reference_does_not_use(tmp_path: Path) -> None:
    _git(tmp_path)
    (tmp_path / "top.v").write_text(
        "module top(input [3:0] a, b, output [4:0] y);\nassign y = a + b;\nendmodule\n"
    )
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "add4.v").write_text(
        "module add4(input [3:0] x, z, output [4:0] s);\nassign s = x + z;\nendmodule\n"
    )
    d = load_design(tmp_path / "top.v", None, ProjectConfig())
    assert list(d.modules) == ["top"]
    from rtlopt.evaluate._sources import library_files

    lib = library_files(d, ["top"], ["add4"], tmp_path / "scratch")
    assert (tmp_path / "lib" / "add4.v").resolve() in lib


def test_a_module_declared_under_a_macro_name_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _git(tmp_path)
    (tmp_path / "names.vh").write_text("`define SUB_NAME ct_sub\n")
    (tmp_path / "sub.v").write_text(
        '`include "names.vh"\nmodule `SUB_NAME (input a, output y);\nassign y = ~a;\nendmodule\n'
    )
    (tmp_path / "top.v").write_text(
        "module top(input a, output y);\nct_sub u (.a(a), .y(y));\nendmodule\n"
    )
    d = load_design(tmp_path / "top.v", None, ProjectConfig())
    assert d.submodules == ("ct_sub",)
    assert d.closure[0] == (tmp_path / "sub.v").resolve()
