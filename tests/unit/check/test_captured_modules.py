"""A module a change adds under a name the repository already instantiates (red team w36 F17):
the gate's "new module" is a finding (check/_check.py ``_captured_modules``)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._check import ModuleCheck, _captured_modules


def test_a_new_module_named_like_a_library_cell_the_base_instantiates(tmp_path: Path) -> None:
    (tmp_path / "top.v").write_text(
        "module top(input a, output z);\n  CELLX c0(.i(a), .o(z));\nendmodule\n"
    )
    (tmp_path / "notes.txt").write_text("CELLY is a cell we may add\n")
    mods: list = [
        ModuleCheck("m.v", "CELLX", "added", notes=["new module"]),
        ModuleCheck("m.v", "CELLY", "added", notes=["new module"]),
        ModuleCheck("m.v", "moved", "added", notes=["new module"]),
    ]
    (tmp_path / "old.v").write_text("module moved;\nendmodule\n")
    _captured_modules(tmp_path, mods, {"moved": ("old.v", "module moved;\nendmodule\n")})
    assert [m.module for m in mods if m.findings] == ["CELLX"]
    assert "top.v instantiated a module of that name" in mods[0].findings[0]
