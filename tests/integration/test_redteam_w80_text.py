"""Round 80 (held out): rtlopt judges the bytes the tools compile.

A byte that is not UTF-8 in a string literal (read as U+FFFD: ``8'hBD`` where the file says
``8'h80``) or a carriage return no line feed follows (a line end to rtlopt, none to the tools)
in a candidate, a reference or a changed file is refused with its line; a header that appears
in a subfolder of an earlier include folder changes the cache's fingerprint."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

REF = b"module m(input [7:0] a, output [7:0] y);\n  assign y = a ^ 8'hBD;\nendmodule\n"
BYTE = b'module m(input [7:0] a, output [7:0] y);\n  wire [7:0] k = "\x80";\n  assign y = a ^ k;\nendmodule\n'
CR = (
    b"`define NOTE base\r`define K 8'hBD\n`ifndef K\n`define K 8'h80\n`endif\n"
    b"module m(input [7:0] a, output [7:0] y);\n  assign y = a ^ `K;\nendmodule\n"
)


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: bytes) -> Path:
    repo = committed_repo(tmp_path / "repo", {"README.md": "m\n"}, monkeypatch, tmp_path / "c")
    (repo / "m.v").write_bytes(ref)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-qm", "m"], check=True)
    return repo


@pytest.mark.parametrize(
    ("cand", "what"),
    [(BYTE, "line 2 holds a byte that is not UTF-8"), (CR, "line 1 holds a carriage")],
)
def test_a_candidate_the_tools_read_otherwise_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: bytes, what: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, REF)
    (tmp_path / "cand.v").write_bytes(cand)
    r = run_rtlopt(repo, "evaluate", "m.v", "--candidate", str(tmp_path / "cand.v"))
    assert r.returncode == 2 and what in r.stderr, r.stderr[-600:]


def test_a_reference_the_tools_read_otherwise_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, BYTE)
    (tmp_path / "cand.v").write_bytes(REF)
    r = run_rtlopt(repo, "evaluate", "m.v", "--candidate", str(tmp_path / "cand.v"))
    assert r.returncode == 2 and "not UTF-8" in r.stderr, r.stderr[-600:]


@pytest.mark.parametrize(("base", "new"), [(REF, BYTE), (BYTE, BYTE.replace(b"\x80", b"\x81"))])
def test_the_gate_refuses_a_changed_file_the_tools_read_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: bytes, new: bytes
) -> None:
    repo = _repo(tmp_path, monkeypatch, base)
    (repo / "m.v").write_bytes(new)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1 and "not UTF-8" in r.stdout, r.stdout[-800:]


def _shadowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sub: Path) -> None:
    """An accepted candidate, then ``sub`` (``inc1/sub`` or the folder it links to) gets a
    header that shadows ``inc2/sub/k.vh``: the same command and a full one reject."""
    inc1, inc2 = tmp_path / "inc1", tmp_path / "inc2"
    (inc2 / "sub").mkdir(parents=True)
    (inc2 / "sub" / "k.vh").write_text("`define K 8'hBD\n")
    ref = b'`include "sub/k.vh"\n' + REF.replace(b"8'hBD", b"`K")
    repo = _repo(tmp_path, monkeypatch, ref)
    (tmp_path / "cand.v").write_bytes(REF)
    args = ("evaluate", "m.v", "-I", str(inc1), "-I", str(inc2), "-c", str(tmp_path / "cand.v"))
    assert run_rtlopt(repo, *args).returncode == 0
    time.sleep(1.1)  # a new change time for the folder
    (sub / "k.vh").write_text("`define K 8'h80\n")
    assert run_rtlopt(repo, *args).returncode == 1
    assert run_rtlopt(repo, *args, "--seed", "42").returncode == 1


def test_a_header_shadowing_from_a_subfolder_of_an_earlier_include_folder_is_no_cache_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "inc1" / "sub").mkdir(parents=True)
    _shadowed(tmp_path, monkeypatch, tmp_path / "inc1" / "sub")


def test_a_header_appearing_in_a_linked_subfolder_of_an_include_folder_is_no_cache_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vendor = tmp_path / "vendor" / "sub"
    vendor.mkdir(parents=True)
    (tmp_path / "inc1").mkdir()
    (tmp_path / "inc1" / "sub").symlink_to(vendor)
    _shadowed(tmp_path, monkeypatch, vendor)


def test_a_header_appearing_beside_an_included_header_is_no_cache_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 82 case 03: a header outside the include folders includes ``z.vh``, found in
    an include folder; a ``z.vh`` appearing beside it (looked up first) changes K."""
    inc, hdr = tmp_path / "inc", tmp_path / "hdr"
    inc.mkdir()
    hdr.mkdir()
    (hdr / "k.vh").write_text('`include "z.vh"\n')
    (inc / "z.vh").write_text("`define K 8'hBD\n")
    ref = b'`include "../hdr/k.vh"\n' + REF.replace(b"8'hBD", b"`K")
    repo = _repo(tmp_path, monkeypatch, ref)
    (tmp_path / "cand.v").write_bytes(REF)
    args = ("evaluate", "m.v", "-I", str(inc), "-c", str(tmp_path / "cand.v"))
    assert run_rtlopt(repo, *args).returncode == 0
    time.sleep(1.1)
    (hdr / "z.vh").write_text("`define K 8'h80\n")
    assert run_rtlopt(repo, *args, "--seed", "42").returncode == 1


def test_a_header_found_through_a_linked_folders_parent_is_no_cache_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 83 case 01: ```include "sub/../hdr/k.vh"`` where ``inc1/sub`` is a link: the
    kernel walks ``..`` to the link target's parent (``deep/hdr``), not to ``inc1/hdr``; a
    header appearing there changes K."""
    deep, inc1, inc2 = tmp_path / "deep", tmp_path / "inc1", tmp_path / "inc2"
    for d in (deep / "sub", deep / "hdr", inc1, inc2 / "sub", inc2 / "hdr"):
        d.mkdir(parents=True)
    (inc1 / "sub").symlink_to(deep / "sub")
    (inc2 / "hdr" / "k.vh").write_text("`define K 8'hBD\n")
    ref = b'`include "sub/../hdr/k.vh"\n' + REF.replace(b"8'hBD", b"`K")
    repo = _repo(tmp_path, monkeypatch, ref)
    (tmp_path / "cand.v").write_bytes(REF)
    args = ("evaluate", "m.v", "-I", str(inc1), "-I", str(inc2), "-c", str(tmp_path / "cand.v"))
    assert run_rtlopt(repo, *args).returncode == 0
    time.sleep(1.1)
    (deep / "hdr" / "k.vh").write_text("`define K 8'h80\n")
    assert run_rtlopt(repo, *args, "--seed", "42").returncode == 1


@pytest.mark.parametrize("where", ["define", "macro"])
def test_an_include_a_macro_makes_is_no_cache_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Round 84 case 13: the include's name only in a define's value (``-D INC=`include
    "../k.vh"``) or a macro's body is looked up from where the macro is expanded: a header
    appearing there changes K."""
    a, b = tmp_path / "a" / "inc", tmp_path / "b" / "inc"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    (tmp_path / "b" / "k.vh").write_text("`define K 8'hBD\n")
    body = REF.replace(b"8'hBD", b"`K")
    args: tuple[str, ...] = ("-I", str(a), "-I", str(b))
    if where == "define":
        ref, args = b"`INC\n" + body, (*args, "-D", '`INC=`include "../k.vh"'[1:])
    else:
        ref = b'`define INC `include "../k.vh"\n`INC\n' + body
    repo = _repo(tmp_path, monkeypatch, ref)
    (tmp_path / "cand.v").write_bytes(REF)
    args = ("evaluate", "m.v", *args, "-c", str(tmp_path / "cand.v"))
    assert run_rtlopt(repo, *args).returncode == 0
    time.sleep(1.1)
    (tmp_path / "a" / "k.vh").write_text("`define K 8'h80\n")
    assert run_rtlopt(repo, *args, "--seed", "42").returncode == 1
