"""The gate's reading of files a build text names (round 79 cases 11, 14): which lines compile
a file, which test or read it."""

from __future__ import annotations

import pytest

from rtlopt.check._named_files import named_file_findings


@pytest.mark.parametrize(
    "line",
    [
        "ifneq ($(wildcard opt.v),)",
        "\t[ -f opt.v ] && DEF=-DFAST",
        "\ttest -e rtl/opt.v || exit 1",
        "K := $(shell cat opt.v | wc -l)",
        "if os.path.exists('opt.v'):",
        "for f in rtl/*.v; do sv2v $f; done",
        "\tiverilog -o sim m.v \\\n  $(if $(wildcard opt.v),-DOPT)",
    ],
)
def test_a_new_verilog_file_a_build_tests_is_a_finding(line: str) -> None:
    found = named_file_findings({"rtl/opt.v": "A"}, [("Makefile", f"sim:\n{line}\n")])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]
    assert "Makefile names it at line 2" in found[0][1]


@pytest.mark.parametrize(
    "line",
    [
        "\tiverilog -o sim $(wildcard rtl/*.v)",
        "SRCS := $(wildcard rtl/*.v)",
        "sim.vvp: rtl/opt.v tb.v",
        "  - rtl/opt.v : {file_type : verilogSource}",
        '    "rtl/opt.v",',
        "# [ -f rtl/opt.v ] is what we used to test",
        '\techo "see rtl/opt.v for the details"',
        "\trm -rf *",
    ],
)
def test_a_verilog_file_a_build_compiles_is_no_finding(line: str) -> None:
    assert named_file_findings({"rtl/opt.v": "A"}, [("Makefile", f"sim:\n{line}\n")]) == []


def test_an_edited_documentation_file_a_build_reads_is_a_finding() -> None:
    texts = [("run.sh", "#!/bin/sh\nK=$(cat $DOCS/k.md)\niverilog -Pm.K=$K m.v\n")]
    found = named_file_findings({"docs/k.md": "M", "README.md": "M"}, texts)
    assert [rel for rel, _ in found] == ["docs/k.md"]
    # by its name on an assignment (passed on to a reader), not only on a test line
    found = named_file_findings({"k.md": "M"}, [("Makefile", "K = k.md\n")])
    assert [rel for rel, _ in found] == ["k.md"]


def test_a_documentation_glob_or_list_entry_is_no_finding() -> None:
    texts = [("BUILD", 'filegroup(\n    srcs = glob(["**/*.md"]),\n    "README.md",\n)\n')]
    assert named_file_findings({"doc/x.md": "M", "README.md": "M"}, texts) == []


def test_an_edited_verilog_file_is_judged_as_a_source_not_here() -> None:
    texts = [("Makefile", "ifneq ($(wildcard m.v),)\nX = 1\nendif\n")]
    assert named_file_findings({"m.v": "M"}, texts) == []


def test_a_file_a_variable_names_for_a_test_is_a_finding() -> None:
    make = "OPT = rtl/opt.v\nifneq ($(wildcard $(OPT)),)\nDEF = -DOPT\nendif\n"
    found = named_file_findings({"rtl/opt.v": "A"}, [("Makefile", make)])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]
    assert "Makefile names it at line 1" in found[0][1]
    compiled = "SRCS = rtl/opt.v m.v\nsim:\n\tiverilog -o sim $(SRCS)\n"
    assert named_file_findings({"rtl/opt.v": "A"}, [("Makefile", compiled)]) == []


@pytest.mark.parametrize(
    ("rel", "status", "text"),
    [
        ("NOTES.md", "M", "ifneq ($(findstring fast,$(shell cat $(DOC).md)),)\n"),
        ("fast_key.v", "A", "ifneq ($(wildcard $(VARIANT)_key.v),)\n"),
        ("fast_key.v", "A", 'if os.path.exists(f"{variant}_key.v"):\n'),
    ],
)
def test_a_name_a_build_computes_matches_any_text(rel: str, status: str, text: str) -> None:
    """Round 81 cases 07, 17, 18: the computed part of a tested or read name is a glob."""
    assert [r for r, _ in named_file_findings({rel: status}, [("Makefile", text)])] == [rel]


@pytest.mark.parametrize(
    "text",
    [
        "match = re.match(r'^\\s*([0-9a-f]+)\\s+(<[0-9a-zA-Z+_]*>)', line)\n",
        'f << stringf("%d\\n", 2*i+2);\n',
    ],
)
def test_patterns_that_are_no_file_globs_name_no_file(text: str) -> None:
    """A regular expression's or a format's ``*`` and ``%d`` match no documentation file."""
    assert named_file_findings({"README.md": "M", "x.md": "M"}, [("t.py", text)]) == []


@pytest.mark.parametrize(
    "text",
    [
        "OPT = rtl/opt.v\nA = $(OPT)\nB := $(A)\nifneq ($(wildcard $(B)),)\nDEF = -DOPT\nendif\n",
        "OPT ?= rtl/opt.v\nA += x.v $(OPT)\nifneq ($(wildcard $(A)),)\nDEF = -DOPT\nendif\n",
        'OPT = "rtl/opt.v"\nif os.path.exists(OPT):\n    defines.append("FAST")\n',
        'OPT = "rtl/opt.v"\nA = OPT\nif os.path.isfile(A):\n    defines.append("FAST")\n',
    ],
)
def test_a_file_named_through_another_variable_for_a_test_is_a_finding(text: str) -> None:
    """A name passed on through variables (``A = $(OPT)``) or read bare (a Python name) before
    a test reads it is tested like ``$(OPT)``."""
    found = named_file_findings({"rtl/opt.v": "A"}, [("Makefile", text)])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]
    assert "Makefile names it at line 1" in found[0][1]


@pytest.mark.parametrize(
    "text",
    [
        # round 83 case 07: a name's existence turned into a define by a Make function
        "DEFS += $(patsubst %_key.v,-DFAST,$(wildcard rtl/opt.v))\nsim:\n\tiverilog $(DEFS) m.v\n",
        "DEFS += $(subst .v,,$(wildcard rtl/opt.v))\n",
        "DEFS += $(addprefix -D,$(notdir $(wildcard rtl/opt.v)))\n",
        "DEFS += $(addsuffix =1,$(wildcard rtl/opt.v))\n",
        "DEFS += $(dir $(wildcard rtl/opt.v))\n",
        "DEFS += -D$(wildcard rtl/opt.v)\n",
        "DEFS += +define+$(wildcard rtl/opt.v)\n",
        "FAST_rtl/opt.v = -DFAST\nDEFS += $(FAST_$(wildcard rtl/opt.v))\n",
        "-include rtl/opt.v\n",
        # a substitution reference ($(VAR:a=b)), a shell expansion that edits a value
        "K = $(wildcard rtl/opt.v)\nsim:\n\tiverilog $(K:%_key.v=-DFAST) m.v\n",
        "K = $(wildcard rtl/opt.v)\nsim:\n\tiverilog $(K:.v=) m.v\n",
        "K=$(ls rtl/opt.v)\niverilog ${K:+-DFAST} m.v\n",
        "K=rtl/opt.v\niverilog -D${K%.v} m.v\n",
        # Python and shell forms of the same
        'defs = ["-DFAST"] * len(glob.glob("rtl/opt.v"))\n',
        'defs = list(map(lambda p: "-DFAST", glob.glob("rtl/opt.v")))\n',
        'defs = [p.replace(".v", "") for p in glob.glob("rtl/opt.v")]\n',
        "DEF=$(basename rtl/opt.v .v)\n",
        "set(K rtl/opt.v)\nif(EXISTS ${K})\n",
        "DEFS += $(addprefix -DFAST/,$(wildcard rtl/opt.v))\n",
        'defs = ["-DFAST"] * (len(glob.glob("rtl/opt.v")))\n',
        'defs = "-D".join(glob.glob("rtl/opt.v"))\n',
        'defs = {"rtl/opt.v": "-DFAST"}.get(next(iter(glob.glob("*.v"))))\n',
    ],
)
def test_a_name_a_build_turns_into_no_source_is_a_finding(text: str) -> None:
    """Round 83 case 07 (class): a line where a file's name, or its existence through a
    wildcard, becomes a define, a flag or a word a function tests is no source list."""
    found = named_file_findings({"rtl/opt.v": "A"}, [("Makefile", text)])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]


@pytest.mark.parametrize(
    "text",
    [
        # round 83 case 12: the recipe tests the prerequisite list through $^
        "m.vvp: m.v tb.v $(wildcard rtl/opt.v)\n\tiverilog $(if $(word 3,$^),-DFAST) m.v tb.v\n",
        "m.vvp: m.v $(wildcard rtl/opt.v)\n\t./build.sh $^\n",
        "m.vvp: m.v $(wildcard rtl/opt.v)\n\techo $(^F) > list.txt\n\tiverilog -o $@ m.v\n",
        'm.vvp: m.v | rtl/opt.v\n\t[ -n "$|" ] && iverilog -DFAST -o $@ m.v\n',
        "m.vvp: m.v rtl/opt.v\n\tiverilog -o $@ $(filter-out $<,$+) m.v\n",
        # a variable expanded in a recipe reads the automatic variables of its rule
        "FLAGS = $(if $(word 3,$^),-DFAST)\nm.vvp: m.v tb.v rtl/opt.v\n\tiverilog $(FLAGS) m.v\n",
        # a target-specific variable, a prerequisite's folder or stem turned into a flag
        "m.vvp: FLAGS = $(if $(word 3,$^),-DFAST)\nm.vvp: m.v tb.v rtl/opt.v\n\tiverilog $(FLAGS) m.v\n",
        "m.vvp: $(wildcard rtl/opt.v) m.v\n\tiverilog -I$(<D) -o $@ m.v\n",
        "m.vvp: m.v $(wildcard rtl/opt.v)\n\tiverilog -o $@ $?\n",
    ],
)
def test_prerequisites_a_recipe_tests_are_a_finding(text: str) -> None:
    """Round 83 case 12 (class): prerequisites read by ``$^ $+ $? $< $| $(^D)...`` on a line
    that is no plain compile line are tested, not compiled."""
    found = named_file_findings({"rtl/opt.v": "A"}, [("Makefile", text)])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]


@pytest.mark.parametrize(
    "text",
    [
        "SRCS := $(wildcard rtl/*.v)\nsim:\n\tiverilog -o sim $(SRCS)\n",
        "SRCS := $(sort $(wildcard rtl/*.v))\nsim:\n\tiverilog -o sim $(SRCS)\n",
        "SRCS = $(addprefix rtl/,opt.v m.v)\nsim:\n\tiverilog -o sim $(SRCS)\n",
        "m.vvp: m.v rtl/opt.v\n\tiverilog -o $@ $^\n\tvvp -n $@\n",
        "%.vvp: %.v\n\tiverilog -o $@ $<\nm.vvp: rtl/opt.v\n",
        "m.vvp: m.v tb.v $(wildcard rtl/*.v)\n\tiverilog -g2012 -DSIM -o $@ $^\n",
        "SRCS = rtl/opt.v\nsim:\n\tiverilog -DWIDTH=8 -o sim $(SRCS)\n\techo done $$?\n",
    ],
)
def test_plain_source_lists_stay_no_finding(text: str) -> None:
    assert named_file_findings({"rtl/opt.v": "A"}, [("Makefile", text)]) == []


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("s.tcl", "if {[file exists rtl/opt.v]} { set D FAST }\n"),
        ("s.tcl", "set K [glob -nocomplain rtl/*_key.v rtl/opt.v]\n"),
        # an index into a list of sources: which file it is depends on which exist
        ("b.py", 'top = sorted(glob.glob("rtl/*.v"))[1]\n'),
        ("run.sh", "K=(rtl/*.v)\niverilog ${K[0]:+-DFAST} m.v\n"),
        # a multi-line variable a test reads
        ("Makefile", "define K\nrtl/opt.v\nendef\nifneq ($(wildcard $(K)),)\nD=1\nendif\n"),
        # a search path: which file a prerequisite is depends on which exist
        ("Makefile", "VPATH = alt\nm.vvp: rtl/opt.v m.v\n\tiverilog -o $@ $^\n"),
        # existence chooses between pattern rules
        (
            "Makefile",
            "%.vvp: %.v rtl/opt.v\n\tiverilog -DFAST -o $@ $*.v\n%.vvp: %.v\n\tiverilog -o $@ $<\n",
        ),
    ],
)
def test_more_forms_of_a_test_are_findings(where: str, text: str) -> None:
    found = named_file_findings({"rtl/opt.v": "A"}, [(where, text)])
    assert [rel for rel, _ in found] == ["rtl/opt.v"]


def test_a_variable_another_build_text_tests_is_tested() -> None:
    """``export K := $(wildcard rtl/opt.v)`` in a Makefile, ``[ -n "$K" ]`` in the script its
    recipe runs: the variables tested are those of every build text."""
    texts = [
        ("Makefile", "export K := $(wildcard rtl/opt.v)\nsim:\n\t./run.sh\n"),
        ("run.sh", '#!/bin/sh\n[ -n "$K" ] && D=-DFAST\niverilog $D m.v\n'),
    ]
    found = named_file_findings({"rtl/opt.v": "A"}, texts)
    assert [rel for rel, _ in found] == ["rtl/opt.v"]


# ------------------------------------------------------------------ red team round 84

KEY = "fast_key.v"


@pytest.mark.parametrize(
    ("where", "text"),
    [
        # a name built from pieces (cases 04, 05)
        ("Makefile", "ifneq ($(wildcard $(addsuffix .v,fast_key)),)\nDEFS += -DFAST\nendif\n"),
        ("Makefile", "ifneq ($(wildcard $(join fast_key,.v)),)\nDEFS += -DFAST\nendif\n"),
        ("b.py", 'defs = ["-DFAST"] if Path("fast_key").with_suffix(".v").exists() else []\n'),
        ("b.py", "if os.path.exists('fast_key' + '.v'):\n    defs.append('-DFAST')\n"),
        ("b.py", 'k = "fast_key" + ".v"\nif os.path.isfile(k):\n    defs.append("-DFAST")\n'),
        ("run.sh", "[ -f fast_key''.v ] && D=-DFAST\n"),
        ("run.sh", '[ -f "fast_key".v ] && D=-DFAST\n'),
        ("run.sh", "ls fast_key.{v,sv} && D=-DFAST\n"),
        ("Makefile", "ifneq ($(wildcard fast_key.[v]),)\nDEFS += -DFAST\nendif\n"),
        ("Makefile", "ifneq ($(wildcard $(VARIANT)),)\nDEFS += -DFAST\nendif\n"),
        # a glob of any shape (case 11)
        ("Makefile", "ifneq ($(wildcard fast_*),)\nDEFS += -DFAST\nendif\n"),
        ("Makefile", "N := $(words $(wildcard *))\n"),
        ("b.py", "if glob.glob('fast_*'):\n    defs.append('-DFAST')\n"),
        ("run.sh", "ls fast_* && D=-DFAST\n"),
        # a listing of a folder
        ("b.py", "if len(os.listdir('.')) > 7:\n    defs.append('-DFAST')\n"),
        ("run.sh", "[ $(ls | wc -l) -gt 7 ] && D=-DFAST\n"),
        ("run.sh", "find . -name '*_key*' | grep -q . && D=-DFAST\n"),
        # names taken from a documentation or data file (case 12)
        (
            "b.py",
            'names = Path("docs/variants.md").read_text().split()\n'
            'defs = ["-DFAST"] if any(Path(n).exists() for n in names) else []\n',
        ),
        ("Makefile", "ifneq ($(wildcard $(shell cat docs/variants.md)),)\nD = -DFAST\nendif\n"),
    ],
)
def test_a_name_a_test_does_not_spell_out_reaches_any_file(where: str, text: str) -> None:
    """Round 84 cases 04, 05, 11, 12 (class): a test or a read by a name built from pieces,
    a glob of any shape, a listing, or names read from a documentation file: every added or
    deleted file it could reach is a finding."""
    found = named_file_findings({KEY: "A"}, [(where, text)])
    assert [rel for rel, _ in found] == [KEY]


@pytest.mark.parametrize(
    "text",
    [
        "DEFS := $(shell grep -rqx 'variant: fast' --exclude-dir=.git . && echo -DFAST)\n",
        "DEFS := $(shell grep -rq 'variant: fast' docs && echo -DFAST)\n",
        "DEFS := $(shell cat $(addsuffix .md,READ) | grep -q fast && echo -DFAST)\n",
        "DEFS := $(shell cat READ''ME.md | grep -q fast && echo -DFAST)\n",
        "DEFS := $(shell find . -newer m.v -name README\\* | grep -q . && echo -DFAST)\n",
        "DEFS := $(shell cat $(DOC) | grep -q fast && echo -DFAST)\n",
        "K := $(file < $(addsuffix .md,README))\nD := $(if $(findstring fast,$(K)),-DFAST)\n",
        "DEFS := $(shell cat README.[m]d | grep -q fast && echo -DFAST)\n",
    ],
)
def test_a_search_of_the_tree_reaches_an_edited_documentation_file(text: str) -> None:
    """Round 84 case 06 (class): a recursive search (``grep -r`` over ``.``) or a read by a
    name not spelled out may read any documentation file under its folder: editing one is a
    finding."""
    found = named_file_findings({"docs/README.md": "M"}, [("Makefile", text)])
    assert [rel for rel, _ in found] == ["docs/README.md"]


def test_a_search_reaches_only_its_folder_and_a_listing_no_edit() -> None:
    texts = [("Makefile", "DEFS := $(shell grep -rq fast scripts && echo -DFAST)\n")]
    assert named_file_findings({"docs/README.md": "M"}, texts) == []
    assert [r for r, _ in named_file_findings({"scripts/x.md": "M"}, texts)] == ["scripts/x.md"]
    listing = [("b.py", "if len(os.listdir('.')) > 7:\n    defs.append('-DFAST')\n")]
    assert named_file_findings({"README.md": "M"}, listing) == []
    assert [r for r, _ in named_file_findings({"NOTES.md": "A"}, listing)] == ["NOTES.md"]


@pytest.mark.parametrize(
    "text",
    [
        "SRCS := $(wildcard rtl/*.v)\nsim:\n\tiverilog -o sim $(SRCS)\n",
        "SRCS := $(wildcard *.v)\nsim:\n\tiverilog -o sim $(SRCS)\n",
        "sim:\n\tiverilog -o sim $(wildcard rtl/*.v) $(RTL)/m.v\n",
        "ifneq ($(wildcard $(RTL)/m.v),)\nDEFS += -DM\nendif\n",
    ],
)
def test_plain_source_lists_and_spelled_out_tests_stay_no_finding(text: str) -> None:
    assert named_file_findings({KEY: "A", "README.md": "M"}, [("Makefile", text)]) == []


def test_an_added_documentation_file_a_build_tests_is_a_finding() -> None:
    texts = [("Makefile", "ifneq ($(wildcard NOTES.md),)\nDEFS += -DFAST\nendif\n")]
    assert [r for r, _ in named_file_findings({"NOTES.md": "A"}, texts)] == ["NOTES.md"]
    assert named_file_findings({"OTHER.md": "A"}, texts) == []


@pytest.mark.parametrize(
    ("rel", "status", "where", "text"),
    [
        # Make's realpath / abspath test a name's existence (round 85 case 04)
        (
            KEY,
            "A",
            "Makefile",
            "ifneq ($(realpath $(addsuffix .v,fast_key)),)\nD = -DFAST\nendif\n",
        ),
        (KEY, "A", "Makefile", "ifneq ($(abspath $(addsuffix .v,fast_key)),)\nD = -DFAST\nendif\n"),
        # a glob in a shell command is a listing (case 05)
        (KEY, "A", "Makefile", "ifneq ($(shell echo fast_*),fast_*)\nD = -DFAST\nendif\n"),
        (KEY, "A", "run.sh", "#!/bin/sh\nset -- fast_*; [ \"$1\" != 'fast_*' ] && D=-DFAST\n"),
        # a name built from pieces inside code another language embeds (case 06)
        (
            "README.md",
            "M",
            "Makefile",
            "D := $(shell python3 -c \"print('-DFAST' if 'fast' in open('READ'+'ME.md').read()"
            " else '')\")\n",
        ),
        # cd / pushd / chdir test a folder's existence (case 08)
        (
            "variants/fast_key.v",
            "A",
            "Makefile",
            "D := $(shell cd variants 2>/dev/null && echo -DF)\n",
        ),
        ("variants/fast_key.v", "A", "run.sh", "#!/bin/sh\npushd variants >/dev/null && D=-DF\n"),
        ("variants/fast_key.v", "A", "b.py", "import os\nos.chdir('variants')\nD = ['-DF']\n"),
        # exists-like calls by any spelling (case 09)
        (KEY, "A", "b.py", 'D = ["-DF"] if os.path.lexists("fast_key" + ".v") else []\n'),
        (KEY, "A", "b.py", 'D = ["-DF"] if os.path.getmtime("fast_key" + ".v") else []\n'),
        (KEY, "A", "b.py", 'D = ["-DF"] if shutil.which("./fast_key" + ".v") else []\n'),
        (KEY, "A", "b.py", 'D = ["-DF"] if os.access("fast_key" + ".v", os.R_OK) else []\n'),
    ],
)
def test_round_85_tests_of_files_by_other_forms_are_findings(
    rel: str, status: str, where: str, text: str
) -> None:
    """Round 85 cases 04, 05, 06, 08, 09 (class): realpath/abspath, a shell's glob, a built
    name in embedded code, a folder tested by cd, an exists-like call of any spelling."""
    found = named_file_findings({rel: status}, [(where, text)])
    assert [r for r, _ in found] == [rel]


def test_a_folder_tested_by_cd_reaches_only_its_files() -> None:
    texts = [("Makefile", "sim:\n\tcd build && make all\n\tcd .. && echo done\n")]
    assert named_file_findings({"rtl/fast_key.v": "A"}, texts) == []


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("configure", '#!/bin/sh\necho "made by $as_me 1.0, which was generated"\n'),
        ("configure", "#!/bin/sh\ncase $x in\n  *)   echo `echo bug` > /dev/null ;;\nesac\n"),
        ("g.py", "p.add_argument('-x', choices=[i.name for i in groups], nargs='*')\n"),
        ("c.py", "log(f\"    python3 m.py build/all.smt2 {step} {' '.join(props)}\")\n"),
        ("Makefile", "DIR := $(shell dirname $(realpath $(lastword $(MAKEFILE_LIST))))\n"),
    ],
)
def test_round_85_forms_in_real_builds_stay_no_finding(where: str, text: str) -> None:
    """Forms of ibex's and cv32e40p's build texts (prose holding "which", a case arm, a
    comprehension, a log message, a Makefile's own folder) reach no file of the tree."""
    assert named_file_findings({"rtl/fast_key.v": "A", "README.md": "M"}, [(where, text)]) == []


@pytest.mark.parametrize(
    "line",
    [
        "DEFS := $(shell chmod u+r variants 2>/dev/null && echo -DFAST)",
        "DEFS := $(shell mkdir variants 2>/dev/null && rmdir variants || echo -DFAST)",
        "DEFS := $(shell git rev-parse -q --verify HEAD:variants >/dev/null && echo -DFAST)",
        "DEFS := $(shell python3 -c \"import os; os.rename('variants', 'variants')\" && echo -DFAST)",
        # round 87 cases 08-11: the words as the shell passes them
        "DEFS := $(shell chmod u+r var\\iants && echo -DFAST)",
        "DEFS := $(shell chmod u+r var'ia'nts && echo -DFAST)",
        "DEFS := $(shell chmod u+r variants/. && echo -DFAST)",
        "DEFS := $(shell chmod u+r $$PWD/variants && echo -DFAST)",
        "DEFS := $(shell grep -q fast_key variants/./fast_key.v && echo -DFAST)",
        # round 88 cases 04, 06, 09
        "DEFS := $(shell grep -q fast_key variants//fast_key.v && echo -DFAST)",
        "DEFS := $(shell grep -q fast_key variants/../variants/fast_key.v && echo -DFAST)",
        "DEFS := $(shell grep -q fast_key ~+/variants/fast_key.v && echo -DFAST)",
        # round 89 cases 04-06: in a quoted sh -c, across Make's `$\`, after a quoted "$$PWD"
        'DEFS := $(shell sh -c "grep -qs fast_key variants/fast_key.v && echo -DFAST")',
        "DEFS := $(shell grep -qs fast_key variants/fast_$\\\nkey.v && echo -DFAST)",
        'DEFS := $(shell grep -qs fast_key "$$PWD"/variants/fast_key.v && echo -DFAST)',
        # round 90 cases 06, 12, 14: the working folder's link count; a quoted command run
        # by sh -c; a file name between two quoted words
        "DEFS := $(if $(filter 4,$(shell stat -c %h .)),-DFAST)",
        'DEFS := $(shell sh -c "grep -qs fast_key variants/fast_key.v" && echo -DFAST)',
        'DEFS := $(if $(shell grep -l "fast_key" variants/fast_key.v -i -e "fast_key"),-DFAST)',
        # round 91 cases 07, 10, 12, 14: sh -c before `--`, after an option's value; a
        # name by escapes; a folder read given none
        'DEFS := $(shell sh -c -- "grep -qs fast_key variants/fast_key.v" && echo -DFAST)',
        'DEFS := $(shell bash -o pipefail -c "grep -qs k variants/fast_key.v" && echo -DF)',
        'DEFS := $(shell perl -e "print -e qq{vari\\x61nts/fast_key.v} ? q{-DF} : q{}")',
        "DEFS := $(filter 8 9,$(shell du -s --inodes --exclude=.git | cut -f1))",
        # round 92 case 07: the working folder by its /proc link
        "DEFS := $(if $(filter 4,$(shell stat -L -c %h /proc/self/cwd)),-DFAST)",
    ],
)
def test_a_folder_a_build_line_tests_names_what_it_holds(line: str) -> None:
    """Round 86 cases 05, 06, 09, 12: any command on a testing line that names a folder
    tells whether it exists, so adding a file under it is a finding."""
    found = named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", line + "\n")])
    assert [rel for rel, _ in found] == ["variants/fast_key.v"]
    compiled = "SRCS := $(wildcard variants/*.v)\nsim:\n\tiverilog -o sim $(SRCS)\n"
    assert named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", compiled)]) == []


def test_a_define_blocks_hash_line_is_its_text() -> None:
    """Round 90 case 16: a ``#`` line inside ``define`` is the variable's text, not a comment."""
    make = (
        "define GET\n#$(shell grep -qs fast_key variants/fast_key.v && echo -DFAST)\nendef\n"
        "DEFS := $(subst #,,$(GET))\nsim:\n\tiverilog $(DEFS) m.v\n"
    )
    found = named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", make)])
    assert [rel for rel, _ in found] == ["variants/fast_key.v"]
    comment = "# $(shell grep -qs fast_key variants/fast_key.v)\nsim:\n\tiverilog m.v\n"
    assert named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", comment)]) == []


def test_a_compile_whose_outcome_the_build_reads_tests_its_files() -> None:
    """Round 91 case 16: ``-iverilog -o k.vvp f.v`` (errors ignored) makes ``k.vvp`` only
    where the file exists, and a later line tests it; a plain compile reads nothing."""
    make = (
        "sim:\n\t-iverilog -o k.vvp variants/fast_key.v\n"
        "\tiverilog $$(test -f k.vvp && echo -DFAST) m.v\n"
    )
    found = named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", make)])
    assert [rel for rel, _ in found] == ["variants/fast_key.v"]
    plain = "sim:\n\tiverilog -o k.vvp variants/fast_key.v m.v\n"
    assert named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", plain)]) == []
    # round 92 case 05: make told to go on past every recipe's error
    ignored = ".IGNORE:\n" + plain + "\tiverilog $$(test -f k.vvp && echo -DFAST) m.v\n"
    found = named_file_findings({"variants/fast_key.v": "A"}, [("Makefile", ignored)])
    assert [rel for rel, _ in found] == ["variants/fast_key.v"]


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('rtl="git+${RTLOPT_GIT}@${RTLOPT_REF}"\npip install "${rtl}"', False),  # a variable
        ("chmod -R a+r rtl", True),  # the folder itself, tested
        ("src=1; chmod -R a+r rtl", True),  # an assignment beside a test of the folder
    ],
)
def test_a_variable_named_like_a_folder_names_no_folder(line: str, named: bool) -> None:
    run = line.replace("\n", "\n          ")
    workflow = f"jobs:\n  a:\n    steps:\n      - run: |\n          {run}\n"
    found = named_file_findings({"rtl/opt.v": "A"}, [(".github/workflows/g.yml", workflow)])
    assert bool(found) is named, found
