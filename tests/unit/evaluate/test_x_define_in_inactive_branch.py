"""A ```define`` in a branch of an elaborated header that rtlopt's defines leave inactive is a
macro another build may define (``ifdef REGRESSION `define XSTIM`` with a Makefile's
``-DREGRESSION``): an x written under it feeds the target (round 76, case 25); one in an active
branch is applied by the elaboration itself."""

from __future__ import annotations

from rtlopt.evaluate._tb_x_defines import build_macros

HEADER = "`ifdef REGRESSION\n`define XSTIM\n`endif\n`define ALWAYS_ON\n"


def test_a_define_in_an_inactive_branch_of_a_read_text_is_a_build_macro() -> None:
    assert "XSTIM" in build_macros([], [HEADER])
    assert "ALWAYS_ON" not in build_macros([], [HEADER])  # the elaboration applies it


def test_a_define_in_a_branch_the_configured_defines_take_is_the_elaborations() -> None:
    assert "XSTIM" not in build_macros([], [HEADER], ["REGRESSION"])
