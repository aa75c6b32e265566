"""A build's include folder outside the committed tree (round 85 case 07: the build writes
``gen/stim.vh`` and compiles with ``-Igen -Itb``, so the testbench's ```include "stim.vh"``
reads the generated header, not the committed ``tb/stim.vh`` writing ``s``): the build's
reading is unknown and the x analysis feeds every input; a committed folder feeds nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
TB = (
    "module tb; reg s; reg [3:0] a = 0; wire [3:0] y;\n  mux dut(.s(s), .a(a), .y(y));\n"
    '  initial begin\n  `include "stim.vh"\n  end\n  initial #5 $finish;\nendmodule\n'
)


def _fed(tmp: Path, make: str, extra: dict[str, str] | None = None) -> tuple[str, ...]:
    files = {"mux.v": MUX, "Makefile": make, "tb/tb.v": TB, "tb/stim.vh": "s = 1'b0;\n"}
    for name, text in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    git = ["git", "-C", str(tmp), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    for name, text in (extra or {}).items():  # written after the commit: not committed
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp)).ports


def test_a_missing_include_folder_feeds_every_input(tmp_path: Path) -> None:
    make = "sim:\n\tmkdir -p gen && echo '//' > gen/stim.vh\n\tiverilog -Igen -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make) == ("s", "a")


def test_an_uncommitted_header_in_an_include_folder_feeds_every_input(tmp_path: Path) -> None:
    make = "sim:\n\tiverilog +incdir+gen+tb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make, {"gen/stim.vh": "// generated\n", "gen/.keep": ""}) == ("s", "a")


def test_committed_include_folders_feed_nothing(tmp_path: Path) -> None:
    assert _fed(tmp_path, "sim:\n\tiverilog -Itb mux.v tb/tb.v\n") == ()
    assert _fed(tmp_path, "sim:\n\tiverilog -I$(GEN) tb/tb.v\n") == ()


def test_an_uncommitted_header_in_a_committed_folder_feeds_every_input(tmp_path: Path) -> None:
    """``inc/`` is committed (``inc/keep.vh``); ``inc/stim.vh`` is not (generated, ignored)."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "keep.vh").write_text("// kept\n")
    make = "sim:\n\tiverilog -Iinc -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make, {"inc/stim.vh": "// generated\n"}) == ("s", "a")


_WRITE_GEN = "mkdir -p gen && printf '//\\n' > gen/stim.vh"


@pytest.mark.parametrize(
    "make",
    [
        # round 86: a computed folder, a folder written in pieces, the working folder, a
        # quoted folder, folders in a command file the build writes
        "G = gen\nsim:\n\tmkdir -p $(G) && printf '//\\n' > $(G)/stim.vh\n\tiverilog -I$(G) -Itb mux.v tb/tb.v\n",
        "sim:\n\tmkdir -p g$(E)en && printf '//\\n' > g$(E)en/stim.vh\n\tiverilog -Igen -Itb mux.v tb/tb.v\n",
        "sim:\n\tprintf '//\\n' > stim.vh\n\tiverilog -Itb mux.v tb/tb.v\n",
        f'sim:\n\t{_WRITE_GEN}\n\tiverilog -I"gen" -Itb mux.v tb/tb.v\n',
        f"sim:\n\t{_WRITE_GEN}\n\tprintf '+incdir+gen\\n+incdir+tb\\n' > c.f\n\tiverilog -c c.f mux.v tb/tb.v\n",
        # a name computed in part, a generator script
        "sim:\n\tprintf '//\\n' > st$(X)im.vh\n\tiverilog -Itb mux.v tb/tb.v\n",
        "sim:\n\tpython3 gen.py\n\tiverilog -Itb mux.v tb/tb.v\n",
    ],
)
def test_a_build_writing_a_file_named_like_an_included_header_feeds_every_input(
    tmp_path: Path, make: str
) -> None:
    gen = "import pathlib\nname = 'stim.vh'\npathlib.Path(name).write_text('//')\n"
    assert _fed(tmp_path, make, {"gen.py": gen} if "gen.py" in make else {}) == ("s", "a")


@pytest.mark.parametrize(
    "make",
    [
        # writes, none of them the header: a log, a wholly computed target
        "sim:\n\tiverilog -Itb -o t.vvp mux.v tb/tb.v > sim.log\n",
        "t.vvp: mux.v\n\tiverilog -Itb -o $@ mux.v tb/tb.v\n",
        # names the header, writes nothing
        "# tb/stim.vh sets the select\nsim:\n\tiverilog -Itb mux.v tb/tb.v\n",
    ],
)
def test_a_build_writing_no_file_of_the_headers_name_feeds_nothing(
    tmp_path: Path, make: str
) -> None:
    assert _fed(tmp_path, make) == ()


def test_an_include_by_a_macro_reads_its_values(tmp_path: Path) -> None:
    """Round 86 case 08: ```include `STIM`` with ```define STIM "stim.vh"``: judged as the
    value; a macro no text defines has a name rtlopt does not know."""
    tb = TB.replace('`include "stim.vh"', "`include `STIM")
    make = "sim:\n\tiverilog -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path / "a", make, {"tb/tb.v": tb}) == ("s", "a")  # STIM nowhere
    defined = '`define STIM "stim.vh"\n' + tb
    assert _fed(tmp_path / "b", make, {"tb/tb.v": defined}) == ()
    written = f"sim:\n\t{_WRITE_GEN}\n\tiverilog -Igen -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path / "c", written, {"tb/tb.v": defined}) == ("s", "a")


def test_another_flows_copy_of_the_header_feeds_nothing(tmp_path: Path) -> None:
    """An equivalence flow copying every header into its own folder (ibex's lec_sv2v.sh)
    names the design's files, not a testbench's top: no build of the testbench reads it."""
    lec = "mkdir -p lec && cp tb/*.vh mux.v lec && cd lec && sv2v stim.vh mux.v > mux2.v\n"
    make = "sim:\n\tiverilog -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make, {"lec.sh": lec}) == ()
    make = "sim:\n\tsh lec.sh\n\tiverilog -Itb mux.v tb/tb.v\n"  # run by the testbench's build
    assert _fed(tmp_path / "run", make, {"lec.sh": lec}) == ("s", "a")


_TB_RUN = "\tiverilog -Itb mux.v tb/tb.v\n"


@pytest.mark.parametrize(
    ("make", "extra"),
    [
        # round 87: a name escaped, an archive unpacked, scripts run through a glob, a writer
        # no rule lists, a target wholly computed from a loop over templates
        ("sim:\n\tprintf '//\\n' > st\\im.vh\n" + _TB_RUN, {}),
        ("sim:\n\ttar -xf hdr.tar\n" + _TB_RUN, {"hdr.tar": "binary"}),
        (
            "sim:\n\tfor f in scripts/*.sh; do sh $$f; done\n" + _TB_RUN,
            {"scripts/g.sh": "echo > stim.vh\n"},
        ),
        ("sim:\n\tsh gen.sh\n" + _TB_RUN, {"gen.sh": "truncate -s 0 stim.vh\n"}),
        ("sim:\n\tfor f in *.vh.in; do cp $$f $${f%.in}; done\n" + _TB_RUN, {"stim.vh.in": "//\n"}),
        # round 88: a brace list, a command's output, another Makefile, a script past the
        # reading limit
        ("SHELL := /bin/bash\nsim:\n\ttouch stim.{vh,log}\n" + _TB_RUN, {}),
        ("sim:\n\tprintf '//\\n' > `echo stim`.vh\n" + _TB_RUN, {}),
        ("sim:\n\t$(MAKE) -s -C gen\n" + _TB_RUN, {"gen/Makefile": "all:\n\techo > ../stim.vh\n"}),
        ("sim:\n\tsh gen.sh\n" + _TB_RUN, {"gen.sh": "# pad\n" * 900_000 + "echo > stim.vh\n"}),
        # the testbench compiled through a filelist the writing Makefile names
        (
            "sim:\n\tprintf '//\\n' > stim.vh\n\tiverilog -Itb -c tb.f\n",
            {"tb.f": "mux.v\ntb/tb.v\n"},
        ),
    ],
)
def test_a_build_writing_files_by_names_rtlopt_cannot_read_feeds_every_input(
    tmp_path: Path, make: str, extra: dict[str, str]
) -> None:
    assert _fed(tmp_path, make, extra) == ("s", "a")


_GEN_PY = 'from pathlib import Path\nPath("stim").with_suffix(".vh").write_text("//")\n'


_ROUND_89 = [
    # round 89: a command by a path starting with //, a pattern rule's target, a script
    # run by a glob, a module run by python -m (a file and a package), a script past
    # the reading limit writing a quoted name, make with joined flags, a folder's
    # programs, a GNUmakefile make reads first, a name a program script computes
    ("sim:\n\t//usr/bin/touch stim.vh\n" + _TB_RUN, {}),
    ("sim: $(addsuffix .vh,stim)\n" + _TB_RUN + "%.vh:\n\tprintf '//' > $@\n", {}),
    ("sim:\n\tsh scripts/ge?.sh\n" + _TB_RUN, {"scripts/gen.sh": "echo > stim.vh\n"}),
    ("sim:\n\t./scripts/ge?.sh\n" + _TB_RUN, {"scripts/gen.sh": "echo > stim.vh\n"}),
    ("sim:\n\tpython3 -m gen\n" + _TB_RUN, {"gen.py": _GEN_PY.replace("with_suffix", "x")}),
    ("sim:\n\tpython3 -m tools\n" + _TB_RUN, {"tools/__main__.py": "open('stim.vh', 'w')\n"}),
    (
        "sim:\n\tsh gen.sh\n" + _TB_RUN,
        {"gen.sh": 'echo > st""im.vh\n' + ("#" * 99 + "\n") * 43_000},
    ),
    ("sim:\n\tmake -sC gen\n" + _TB_RUN, {"gen/Makefile": "all:\n\techo > ../stim.vh\n"}),
    ("sim:\n\trun-parts scripts\n" + _TB_RUN, {"scripts/gen": "#!/bin/sh\necho > stim.vh\n"}),
    (
        "sim:\n" + _TB_RUN,
        {"GNUmakefile": "include Mak?file\nsim: stim.vh\nstim.vh:\n\techo > $@\n"},
    ),
    ("sim:\n\tpython3 gen.py\n" + _TB_RUN, {"gen.py": _GEN_PY}),
]


_F = "F := $(addsuffix .vh,stim)\n"


_ROUND_90 = [
    # round 90: make's built-in rule from stim.vh.sh; writes by commands whose targets
    # rtlopt does not read (dd of=, sed's w, uniq's output, inline Python); a script
    # bash sources through BASH_ENV; a rule's target by a function; make's SHELL a
    # script; a define block's `#` line
    ("sim: $(addsuffix .vh,stim)\n" + _TB_RUN, {"stim.vh.sh": "# made\n"}),
    (_F + "sim:\n\tprintf '//' | dd of=$(F) status=none\n" + _TB_RUN, {}),
    (_F + "sim:\n\tprintf '//' | sed -n \"w $(F)\"\n" + _TB_RUN, {}),
    (_F + "sim:\n\tprintf '//' | uniq - $(F)\n" + _TB_RUN, {}),
    ('sim:\n\tpython3 -c \'open("STIM.VH".lower(), "w")\'\n' + _TB_RUN, {}),
    (
        "SHELL := /bin/bash\nexport BASH_ENV := $(addsuffix .sh,$(CURDIR)/env)\nsim:\n" + _TB_RUN,
        {"env.sh": "printf '//' > st''im.vh\n"},
    ),
    ("sim: $(addsuffix .vh,stim)\n" + _TB_RUN + "$(addsuffix .vh,stim):\n\techo > $@\n", {}),
    (
        "SHELL := $(addsuffix .sh,$(CURDIR)/wrap)\nsim:\n" + _TB_RUN,
        {"wrap.sh": "printf '//' > st''im.vh\nexec /bin/sh \"$@\"\n"},
    ),
    ("define GEN\n#$(shell printf '//' > stim.vh)\nendef\nX := $(GEN)\nsim:\n" + _TB_RUN, {}),
]


_GEN_V = (
    'module gen; integer f;\ninitial begin f = $fopen({"st", "im", ".vh"}, "w"); $fclose(f); end\n'
    "endmodule\n"
)
_ROUND_91 = [
    # round 91: inline code after other options; a .txt script run by sh, by python; a
    # simulation writing a computed name; a name glued to an option; sed's w after `=`;
    # bash's >& to a computed name; a Make include of a file with no Make name
    ('sim:\n\tperl -w -s -e \'open F, ">", lc "STIM.VH"\'\n' + _TB_RUN, {}),
    (
        "sim:\n\tsh gen.txt\n" + _TB_RUN,
        {"gen.txt": "F=$(printf 'st%sm.vh' i)\nprintf '//' | uniq - \"$F\"\n"},
    ),
    (
        "sim:\n\tpython3 tools/gen.txt\n" + _TB_RUN,
        {"tools/gen.txt": "open('STIM.VH'.lower(), 'w')\n"},
    ),
    ("sim:\n\tiverilog -o g.vvp gen/gen.v && vvp -n g.vvp\n" + _TB_RUN, {"gen/gen.v": _GEN_V}),
    ("sim:\n\tvvp -n -lstim.vh t.vvp\n" + _TB_RUN, {}),
    (_F + "sim:\n\tprintf '//' | sed -n --expression=w\\ $(F)\n" + _TB_RUN, {}),
    ("SHELL := /bin/bash\n" + _F + "sim:\n\tprintf '//' >&$(F)\n" + _TB_RUN, {}),
    ("SHELL := /bin/bash\n" + _F + "sim:\n\tprintf '//' &>$(F)\n" + _TB_RUN, {}),
    (
        "include tools/rules.in\nsim:\n" + _TB_RUN,
        {"tools/rules.in": "X := $(shell printf x | uniq - $(addsuffix .vh,stim))\n"},
    ),
]


_ROUND_92 = [
    # round 92: understood commands writing a name Make computes (trap's code, sort -uo,
    # sed --in, sed's 1w, yosys's write_verilog, perl -pi): the name evaluated
    (_F + 'sim:\n\ttrap "uniq /dev/null $(F)" EXIT\n' + _TB_RUN, {}),
    (_F + "sim:\n\tsort -uo $(F) /dev/null\n" + _TB_RUN, {}),
    (_F + "sim:\n\tsed --in -e d tb/$(F)\n" + _TB_RUN, {}),
    (_F + "sim:\n\tsed -n '1w $(F)' /dev/null\n" + _TB_RUN, {}),
    (_F + 'sim:\n\tyosys -q -p "write_verilog -noattr $(F)"\n' + _TB_RUN, {}),
    (_F + "sim:\n\tperl -pi tools/blank.pl tb/$(F)\n" + _TB_RUN, {"tools/blank.pl": '$_ = "";\n'}),
    # a command variable given two values (make uses the last); a module the script
    # imports; a Make include a rule makes
    ("C := cat\nC := uniq\n" + _F + "sim:\n\t$(C) /dev/null $(F)\n" + _TB_RUN, {}),
    (
        "sim:\n\tpython3 tools/gen.py\n" + _TB_RUN,
        {"tools/gen.py": "import helper\n", "tools/helper.py": "open('st' + 'im.vh', 'w')\n"},
    ),
    (
        "-include gen.mk\ngen.mk:\n\tprintf 'x' > gen.mk\nsim:\n" + _TB_RUN,
        {},
    ),
]


@pytest.mark.parametrize(("make", "extra"), [*_ROUND_89, *_ROUND_90, *_ROUND_91, *_ROUND_92])
def test_rounds_89_to_92_writes_of_the_header_feed_every_input(
    tmp_path: Path, make: str, extra: dict[str, str]
) -> None:
    assert _fed(tmp_path, make, extra) == ("s", "a")


@pytest.mark.parametrize(
    "make",
    [
        # commands whose writes are read: a tool by a variable, a log, a folder made
        "IVERILOG ?= iverilog\nsim:\n\t$(IVERILOG) -Itb mux.v tb/tb.v\n",
        "sim:\n\tmkdir -p out && iverilog -Itb -o out/t.vvp mux.v tb/tb.v && vvp out/t.vvp | tee sim.log\n",
        "SHELL := /bin/bash\nsim:\n\tif [ -d tb ]; then iverilog -Itb mux.v tb/tb.v; fi\n",
    ],
)
def test_commands_whose_writes_are_read_feed_nothing(tmp_path: Path, make: str) -> None:
    assert _fed(tmp_path, make) == ()


@pytest.mark.parametrize(
    "make",
    [
        # a comment in a filelist, a pattern rule of other files, a glob no program runs
        "sim:\n\tiverilog -Itb -c tb.f\n",
        "sim: t.vvp\n" + _TB_RUN + "%.vvp: %.v\n\tiverilog -o $@ $<\n%.log: %.vvp\n\tvvp $< > $@\n",
        "sim:\n\tls tb/*.vh > hdrs.txt\n" + _TB_RUN,
    ],
)
def test_comments_other_patterns_and_listed_globs_write_no_header(
    tmp_path: Path, make: str
) -> None:
    extra = {"tb.f": "// writes > stim.vh? no: a comment\nmux.v\ntb/tb.v\n"}
    assert _fed(tmp_path, make, extra) == ()


def test_a_rule_writing_its_own_literal_target_feeds_nothing(tmp_path: Path) -> None:
    """``$@`` is its rule's target, by name: a log or a compiled file is no header."""
    make = "sim.log: t.vvp\n\tvvp -n t.vvp > $@\nt.vvp:\n\tiverilog -Itb -o $@ mux.v tb/tb.v\n"
    assert _fed(tmp_path, make) == ()


def test_a_document_or_a_comment_writes_no_header(tmp_path: Path) -> None:
    """CI on e4393936: a README naming the testbench and its header (``> stim.vh`` in an
    example), and a comment with ``<module>`` in a configuration, write nothing."""
    readme = "Run `iverilog tb/tb.v`; it reads stim.vh: `printf '//' > stim.vh`\n"
    toml = '# with an "Rtlopt-Equivalent: <module>" trailer.\nfilelists = ["tb.f"]\n'
    extra = {"README.md": readme, "rtlopt.toml": toml, "tb.f": "mux.v\ntb/tb.v\n"}
    assert _fed(tmp_path, "sim:\n\tiverilog -Itb -c tb.f\n", extra) == ()
