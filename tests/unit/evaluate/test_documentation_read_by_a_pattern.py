"""A documentation file a build may read by a path it builds is judged like any text
(``evaluate/_doc_patterns.py``, ``_foreign_x_anytext.named_exempt``, ``_param_mentions.prose``):
a built name (``scenarios/$(SCEN).txt``), a glob (``Path("docs").glob("*.md")``), a listed
folder, a file a ``sed`` reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._doc_patterns import pattern_matched
from rtlopt.evaluate._foreign_x_anytext import named_exempt, x_texts

DO = "run 1; force -freeze sim:/tb/dut/s X 0; run 20\n"
PLAN = "| scenario | s | a | b |\n|---|---|---|---|\n| unknown_sel | X | 1010 | 0101 |\n"


@pytest.mark.parametrize(
    ("reader", "doc"),
    [
        ("Makefile", "sim:\n\tvsim -c -do scenarios/$(SCEN).txt tb\n"),
        ("gen_tb.py", 'for f in Path("docs").glob("*.md"):\n    rows += f.read_text()\n'),
        ("gen_tb.py", 'rows = open(f"docs/{name}.md").read()\n'),
        ("gen_tb.py", 'rows = open("docs/" + name + ".md").read()\n'),
        ("gen_tb.py", 'for f in os.listdir("docs"):\n    rows += open(f).read()\n'),
        ("run.sh", "for f in docs/*; do cat $f; done\n"),
        ("Makefile", "P := $(shell sed -n 's/x/y/p' docs/plan.md)\n"),
    ],
)
def test_a_document_a_build_may_read_feeds_x(reader: str, doc: str) -> None:
    texts = [
        (Path("/r") / reader, doc),
        (Path("/r/docs/plan.md"), PLAN),
        (Path("/r/scenarios/unknown_sel.txt"), DO),
    ]
    named = named_exempt(texts)
    hits = x_texts(texts, [], set(), ["s", "a", "b"], {"dut/s"}, {"mux"})
    assert "\0plan.md" in named or "\0unknown_sel.txt" in named, named
    assert {h.path.name for h in hits} & {"plan.md", "unknown_sel.txt"}


def test_a_document_no_pattern_may_name_stays_prose() -> None:
    texts = [
        (Path("/r/Makefile"), "sim:\n\tiverilog -o sim tb/*.v\n\trm -f build/*\n/* c */\n"),
        (Path("/r/docs/plan.md"), PLAN),
        (Path("/r/README.md"), PLAN),
    ]
    assert named_exempt(texts) == set()
    assert pattern_matched(texts[:1], [p for p, _ in texts[1:]]) == set()


TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""
SED = "P := $(shell sed -n 's/^| *\\\\([A-Z]*\\\\) *| *\\\\([0-9]*\\\\) *|$$/-G\\\\1=\\\\2/p' docs/{})\n"


@pytest.mark.parametrize("read", ["config.md", "*.md"])
def test_a_markdown_table_a_build_reads_names_a_parameter(tmp_path: Path, read: str) -> None:
    """31: a ``sed`` turns the table's row ``| W | 21 |`` into ``-GW=21``; a Markdown file no
    text reads stays prose."""
    from rtlopt.config import ProjectConfig
    from rtlopt.evaluate._foreign_params import foreign_parameterizations
    from rtlopt.frontend import load_design
    from rtlopt.frontend._params import parameterizations

    for rel, text in {
        "tgt.v": TGT,
        "Makefile": "sim:\n\tiverilog $(P) tgt.v\n" + SED.format(read),
        "docs/config.md": "| name | value |\n|---|---|\n| W | 21 |\n",
        "notes/history.md": "| W | 16 |\n",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    design = load_design(tmp_path / "tgt.v", "tgt", ProjectConfig())
    _, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    assert why.startswith("docs/config.md:3 names parameter W of tgt"), why


@pytest.mark.parametrize(
    "reader",
    [
        "P := $(shell sed -n p docs/{config,notes}.md)\n",  # a bash brace list
        "cat docs/{con,x{a,b}}fig.md\n",  # nested
        "cat {docs/config,x}.md\n",  # a list holding a folder
        "cat docs/{1..3}.md docs/conf{i..j}g.md\n",  # a range
        "shopt -s extglob; cat docs/@(config|notes).md\n",  # bash's extended glob
        'cat docs/con"fig".md\n',  # a quoted piece the shell joins to its word
        'cat "docs/"config.md\n',
        'rows = open("docs/" "config.md").read()\n',  # strings joined by adjacency
        "P := $(addsuffix .md,docs/config notes)\n",  # a Make function building names
        "P := $(addprefix docs/,config.md)\n",
        'rows = (Path("docs") / (name + ".md")).read_text()\n',  # a variable and a string
        "cat docs/con\\fig.md\n",  # a backslash the shell drops
    ],
)
def test_a_shell_expansion_rtlopt_does_not_expand_names_every_file_it_may_match(
    reader: str,
) -> None:
    docs = [Path("/r/docs/config.md"), Path("/r/NOTES.txt")]
    assert Path("/r/docs/config.md") in pattern_matched([(Path("/r/Makefile"), reader)], docs)


@pytest.mark.parametrize(
    "listing",
    [
        "for f in sorted(os.listdir()):\n    if f.endswith('.md'): rows += open(f).read()\n",
        "for e in os.scandir(root):\n    rows += open(e.path).read()\n",
        "for f in Path().iterdir():\n    rows += f.read_text()\n",
        "for f in Path.cwd().glob('*'):\n    rows += f.read_text()\n",
        "for f in Path(here).glob(pat):\n    rows += f.read_text()\n",
        "for d, _, fs in os.walk(os.getcwd()):\n    rows += fs\n",
        "for f in glob.glob(pattern):\n    rows += open(f).read()\n",
    ],
)
def test_a_listing_of_no_literal_folder_may_read_every_document(listing: str) -> None:
    """The working folder or a computed one is any folder: each document may be read."""
    docs = [Path("/r/TESTPLAN.md"), Path("/r/docs/plan.md")]
    assert pattern_matched([(Path("/r/gen_tb.py"), listing)], docs) == set(docs)


def test_a_listing_of_a_literal_folder_reads_that_folder_only() -> None:
    texts = [(Path("/r/gen_tb.py"), "for f in os.listdir('tb'):\n    print(f)\nglob([])\n")]
    assert pattern_matched(texts, [Path("/r/TESTPLAN.md"), Path("/r/docs/plan.md")]) == set()
