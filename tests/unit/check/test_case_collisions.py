"""Paths a case-insensitive checkout writes into one file (red team w37 F3)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from rtlopt.check._case import case_collisions, tree_paths


def test_an_added_case_variant_of_a_design_file_collides() -> None:
    assert case_collisions(["M.v", "top.v", "m.V"], ["m.V"]) == [("m.V", "M.v")]


def test_an_added_normalization_variant_collides() -> None:
    nfc, nfd = unicodedata.normalize("NFC", "módulo.v"), unicodedata.normalize("NFD", "módulo.v")
    assert nfc != nfd
    assert case_collisions([nfc, nfd], [nfd]) == [(nfd, nfc)]


def test_a_file_added_under_a_case_variant_of_a_folder_collides() -> None:
    assert case_collisions(["rtl/m.v", "RTL/n.v", "rtl", "RTL"], ["RTL/n.v"]) == [
        ("RTL/n.v", "rtl")
    ]


def test_distinct_names_and_unadded_pairs_pass() -> None:
    assert case_collisions(["rtl/m.v", "rtl/n.v", "rtl"], ["rtl/n.v"]) == []
    assert case_collisions(["A.v", "a.v", "b.v"], ["b.v"]) == []  # not the change's


def test_tree_paths_lists_files_and_folders_without_git(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "index").write_text("")
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "m.v").write_text("")
    assert sorted(tree_paths(tmp_path)) == ["rtl", "rtl/m.v"]
