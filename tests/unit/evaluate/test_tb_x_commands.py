"""Which commands of a testbench's build rtlopt reads the writes of (round 90 cases 02, 03,
10, 15): any other command may write a header by a name rtlopt cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._tb_x_commands import unread_command, written_arguments


def _unread(make: str) -> str:
    code = [ln for ln in make.splitlines() if not ln.lstrip().startswith("#")]
    return unread_command(Path("Makefile"), make, code, frozenset({"gen.sh", "gen.py", "Makefile"}))


@pytest.mark.parametrize(
    "recipe",
    [
        "printf '//' | dd of=$(F) status=none",
        "printf '//' | uniq - $(F)",
        "printf '//' | sed -n \"w $(F)\"",
        "sed -i s/a/b/ $(F)",
        'python3 -c \'open("STIM.VH".lower(), "w")\'',
        'perl -e \'open(F, ">" . lc("STIM.VH"))\'',
        "./helper $(F)",  # a program no build text is
        'python3 -B -c \'open("STIM.VH".lower(), "w")\'',  # round 91 case 01
        "printf 'open(1)' | python3",  # code on standard input
        "python3 /opt/tools/other.py",  # a script of no build text
        "$(GEN) stim",  # a variable no text sets
        "$(file >$(F),//)",
        "echo ok; awk '{print > \"x\"}' in",
    ],
)
def test_a_command_whose_writes_are_not_read_is_named(recipe: str) -> None:
    assert _unread(f"sim:\n\t{recipe}\n\tiverilog tb.v\n") == recipe


@pytest.mark.parametrize(
    "recipe",
    [
        "@mkdir -p out && iverilog -o out/t.vvp tb.v 2>&1 | tee sim.log",
        "-rm -f t.vvp; $(IVERILOG) -o t.vvp tb.v",
        "if [ -d out ]; then vvp -n t.vvp > out/log; fi",
        "for f in a b; do echo $$f; done",
        "sh ./gen.sh && ${VVP:-vvp} t.vvp",
        "sed -n 's/x/y/p' in.txt > out.txt",
        "env A=1 timeout 10 vvp t.vvp",
        "python3 gen.py --out stim",
    ],
)
def test_commands_whose_writes_are_read_are_not_named(recipe: str) -> None:
    assert _unread(f"IVERILOG ?= iverilog\nsim:\n\t{recipe}\n") == ""


def test_the_arguments_of_file_commands_are_targets() -> None:
    assert written_arguments("touch $(F) && truncate -s 0 g.vh; dd of=h.vh") == [
        "h.vh",
        "$F",
        "g.vh",
    ]
