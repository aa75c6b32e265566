"""A new file named like a header the repository includes (red team w39 F7,
``check/_shadow.py``): which one a build reads depends on its include folder order."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._shadow import shadowed_headers
from rtlopt.frontend._depgraph import design_graph

TOP = '`include "cfg.vh"\nmodule top(output [7:0] z);\n  assign z = `INC;\nendmodule\n'


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _found(tmp_path: Path, base: dict[str, str], new: dict[str, str], added: list[str]) -> list:
    b, n = _tree(tmp_path / "base", base), _tree(tmp_path / "new", new)
    texts = {rel: (b / rel).read_text() for rel in base}
    return shadowed_headers(design_graph(n), (b, n), added, texts.get)


def test_a_new_header_beside_one_of_the_same_name_is_a_finding(tmp_path: Path) -> None:
    base = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n"}
    found = _found(tmp_path, base, {**base, "local/cfg.vh": "`define INC 2\n"}, ["local/cfg.vh"])
    assert len(found) == 1 and found[0].file == "local/cfg.vh"
    said = found[0].findings[0]
    assert said.startswith('top.v:1: local/cfg.vh is new, and top.v includes "cfg.vh"')
    assert "also names inc/cfg.vh" in said and "give the new file a name" in said


def test_a_fresh_name_a_rename_and_the_change_s_own_include_are_none(tmp_path: Path) -> None:
    base = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n"}
    fresh = {**base, "inc/fresh.vh": "`define F 1\n"}
    assert _found(tmp_path / "a", base, fresh, ["inc/fresh.vh"]) == []
    moved = {"top.v": TOP, "local/cfg.vh": "`define INC 1\n"}
    assert _found(tmp_path / "b", base, moved, ["local/cfg.vh"]) == []
    own = {**base, "top2.v": '`include "new.vh"\n', "new.vh": "`define N 1\n"}
    assert _found(tmp_path / "c", base, own, ["top2.v", "new.vh"]) == []


def test_a_header_a_folder_outside_the_repository_supplied_is_a_finding(tmp_path: Path) -> None:
    found = _found(
        tmp_path, {"top.v": TOP}, {"top.v": TOP, "cfg.vh": "`define INC 2\n"}, ["cfg.vh"]
    )
    assert len(found) == 1 and "no file of the repository supplied" in found[0].findings[0]


def test_an_include_a_macro_names_is_resolved_or_fails_closed(tmp_path: Path) -> None:
    top = TOP.replace('"cfg.vh"', "`CFG")
    base = {"top.v": '`define CFG "cfg.vh"\n' + top, "inc/cfg.vh": "`define INC 1\n"}
    new = {**base, "local/cfg.vh": "`define INC 2\n", "other.vh": "`define O 1\n"}
    found = _found(tmp_path / "a", base, new, ["local/cfg.vh", "other.vh"])
    assert [m.file for m in found] == ["local/cfg.vh"]
    base = {"top.v": top.replace("`CFG", "`CFG(cfg)"), "inc/cfg.vh": "`define INC 1\n"}
    new = {**base, "other.vh": "`define O 1\n", "n.v": "module n;\nendmodule\n"}
    found = _found(tmp_path / "b", base, new, ["n.v", "other.vh"])
    assert [m.file for m in found] == ["other.vh"]
    assert "a file a macro names, which the gate cannot resolve" in found[0].findings[0]


def test_a_new_link_to_a_folder_holding_a_header_of_that_name_is_a_finding(
    tmp_path: Path,
) -> None:
    """``-Ilocal -Iinc``: a link ``local -> alt`` makes the build read ``alt/cfg.vh``."""
    base = {"top.v": TOP, "inc/cfg.vh": "`define INC 1\n", "alt/cfg.vh": "`define INC 2\n"}
    b, n = _tree(tmp_path / "base", base), _tree(tmp_path / "new", base)
    (n / "local").symlink_to("alt")
    texts = {rel: (b / rel).read_text() for rel in base}
    found = shadowed_headers(design_graph(n), (b, n), ["local"], texts.get)
    assert [m.file for m in found] == ["local/cfg.vh"]
    assert "also names inc/cfg.vh" in found[0].findings[0]
