"""The changed-package plan of `rtlopt check` (issue 33): the base's package renamed beside
the change's, its users' references renamed, and a finding where that cannot be set up."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._packages import package_text, plan_packages, rename_packages
from rtlopt.frontend._depgraph import design_graph

PKG = """// pkg_a: constants
package pkg_a;
  localparam int W = 4; // pkg_a::W
endpackage : pkg_a
"""
USER = """module u import pkg_a::*; (input [pkg_a::W-1:0] a, output [W-1:0] y);
  // pkg_a::W in a comment, "pkg_a::W" in a string
  assign y = a;
endmodule
"""


def test_rename_touches_code_not_comments_or_other_names() -> None:
    text = USER.replace("module u", "module u_pkg_a")
    out = rename_packages(text, {"pkg_a": "pkg_a__rtlopt_base"})
    assert "import pkg_a__rtlopt_base::*" in out
    assert "[pkg_a__rtlopt_base::W-1:0]" in out
    assert "// pkg_a::W in a comment" in out and '"pkg_a::W"' in out
    assert "module u_pkg_a" in out
    renamed = rename_packages(PKG, {"pkg_a": "b"})
    assert "package b;" in renamed and "endpackage : b" in renamed and "// pkg_a::W" in renamed


def test_package_text_is_the_declaration_only() -> None:
    text = "`define X 1\n" + PKG + "module m; endmodule\n"
    found = package_text(text, "pkg_a")
    assert found is not None
    assert found.startswith("package pkg_a;") and found.endswith("endpackage : pkg_a")
    assert package_text(text, "pkg") is None


def _plan(tmp_path: Path, files: dict[str, str], base: dict[str, str]):  # type: ignore[no-untyped-def]
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    graph = design_graph(tmp_path)
    users = {"pkg_a": sorted(graph.users_of_packages(["pkg_a"]))}
    return plan_packages(graph, users, {"pkg_a": "pkg.sv"}, base.get, tmp_path)


def test_a_module_user_is_re_judged_against_the_renamed_base_package(tmp_path: Path) -> None:
    new = PKG.replace("W = 4", "W = 2 + 2")
    plan = _plan(tmp_path, {"pkg.sv": new, "u.sv": USER}, {"pkg.sv": PKG, "u.sv": USER})
    assert plan.renames == {"pkg_a": "pkg_a__rtlopt_base"} and not plan.blocked
    assert list(plan.users) == ["u.sv"] and "pkg_a" in plan.users["u.sv"]
    [base] = plan.base_texts["pkg.sv"]
    assert base.startswith("package pkg_a__rtlopt_base;") and "W = 4" in base


def test_what_cannot_be_re_judged_is_a_finding(tmp_path: Path) -> None:
    new = PKG.replace("W = 4", "W = 5")
    other = "package pkg_b;\n  localparam int V = pkg_a::W;\nendpackage\n"
    plan = _plan(
        tmp_path, {"pkg.sv": new, "u.sv": USER, "b.sv": other}, {"pkg.sv": PKG, "u.sv": USER}
    )
    assert "b.sv read it outside a module" in plan.blocked["pkg_a"], plan
    assert not plan.renames and not plan.users
    # a macro or a compilation-unit import can carry it into files that never name it
    (tmp_path / "b.sv").unlink()
    for user in ("`define WIDTH pkg_a::W\n" + USER, "import pkg_a::*;\n" + USER):
        plan = _plan(tmp_path, {"pkg.sv": new, "u.sv": user}, {"pkg.sv": PKG, "u.sv": user})
        assert "u.sv read it in a `define or outside a module" in plan.blocked["pkg_a"], plan
    (tmp_path / "b.sv").write_text(other)
    # a package removed while a module still uses it
    (tmp_path / "b.sv").unlink()
    plan = _plan(tmp_path, {"pkg.sv": "// gone\n"}, {"pkg.sv": PKG, "u.sv": USER})
    assert "removed" in plan.blocked["pkg_a"], plan
    # a package in a file with modules
    plan = _plan(tmp_path, {"pkg.sv": new + "module z; endmodule\n"}, {"pkg.sv": PKG})
    assert "also holds modules" in plan.blocked["pkg_a"], plan
