"""`rtlopt init`: a starting configuration and the gate's pre-commit / CI files for a repository."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.markup import escape

from rtlopt.cli._common import EXIT_OK, EXIT_USAGE, console, handle_errors
from rtlopt.config import ProjectConfig
from rtlopt.frontend._build_flags import BUILD_FILE, build_flags

_SKIP = {"build", "node_modules", "__pycache__", "venv", ".venv"}
_SOURCES = (".v", ".sv")
_HEADERS = (".vh", ".svh")
_FILELISTS = (".f", ".vc", ".flist")
#: Project files of FPGA and package tools (Vivado, Quartus, ISE, FuseSoC).
_PROJECTS = (".xpr", ".qsf", ".xise", ".core")

PRE_COMMIT = """\
# rtlopt check before every commit (written by `rtlopt init`; see docs/ci.md of rtlopt).
# Needs rtlopt, iverilog and Yosys installed (OpenSTA and a liberty file for PPA).
repos:
  - repo: local
    hooks:
      - id: rtlopt-check
        name: rtlopt check
        entry: rtlopt check
        language: system
        # every commit, and no file names: the gate judges the whole staged change by what
        # the design reads (library files of any suffix, submodules, .gitattributes)
        always_run: true
        pass_filenames: false
        require_serial: true
        # to count an "Rtlopt-Equivalent: <module>" trailer of the commit's own message, run
        # it when the message is written instead (pre-commit install --hook-type commit-msg):
        # entry: rtlopt check --message-file
        # stages: [commit-msg]
        # files: ''    (the one file passed is the message: .git/COMMIT_EDITMSG)
"""

WORKFLOW = """\
# Pull-request gate (written by `rtlopt init`): rtlopt check against the base branch.
# Set RTLOPT_PIP to a reviewed commit of rtlopt. See docs/ci.md of rtlopt.
name: rtlopt check

on:
  pull_request:

permissions:
  contents: read

env:
  RTLOPT_PIP: git+https://github.com/your-org/rtlopt@0123456789abcdef0123456789abcdef01234567

jobs:
  check:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
          submodules: recursive
      - name: EDA tools
        run: |
          sudo apt-get update -qq
          sudo apt-get install -y -qq iverilog yosys opensta bubblewrap
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install rtlopt
        run: >-
          python -m pip install "rtlopt @ $RTLOPT_PIP"
          "rtlopt-pdk-sky130hd @ $RTLOPT_PIP#subdirectory=plugins/rtlopt-pdk-sky130hd"
      - name: rtlopt check
        env:
          BASE: ${{ github.base_ref }}
        run: rtlopt check --base "origin/$BASE" --summary "$GITHUB_STEP_SUMMARY"
"""


@dataclass
class Detected:
    """What a repository's files say about how to read it."""

    filelists: list[str] = field(default_factory=list)
    include_dirs: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    sources: int = 0
    #: ``NAME=VALUE`` of the filelists' variables, and per name the other values found
    variables: list[str] = field(default_factory=list)
    alternatives: dict[str, list[str]] = field(default_factory=dict)
    #: filelists that could not be read, with why
    unread: list[str] = field(default_factory=list)
    #: an FPGA or package tool's project (Vivado, Quartus, ISE, FuseSoC): its source list is
    #: not read, the user writes the filelist of the build they use
    projects: list[str] = field(default_factory=list)
    #: ``(build file, [-D flags])``: defines a Makefile or script passes a Verilog tool (not
    #: applied: the user chooses the build rtlopt checks)
    build_defines: list[tuple[str, list[str]]] = field(default_factory=list)
    #: ``(file, line, error)`` of sources that do not parse on their own
    unparsed: list[tuple[str, int, str]] = field(default_factory=list)
    #: module name -> files, where several files define one
    duplicates: dict[str, list[str]] = field(default_factory=dict)


def detect(root: Path) -> Detected:
    """Filelists, folders holding headers, and the defines the filelists set."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend import include_roots, read_filelist
    from rtlopt.frontend._scan import scan_sources

    found = Detected()
    sources: list[Path] = []
    headers: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP and not d.startswith("."))
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        if any(n.endswith(_HEADERS) for n in filenames):
            found.include_dirs.append(rel_dir)
        headers += [here / n for n in sorted(filenames) if n.endswith(_HEADERS)]
        for name in sorted(filenames):
            rel = (here / name).relative_to(root).as_posix()
            if name.endswith(_PROJECTS):
                found.projects.append(rel)
            if BUILD_FILE.match(name):
                flags = build_flags(here / name)
                if flags:
                    found.build_defines.append((rel, flags))
            if name.endswith(_SOURCES):
                found.sources += 1
                sources.append(here / name)
            elif name.endswith(_FILELISTS) or name.startswith("Flist."):
                try:
                    lst = read_filelist(
                        here / name, root, variables=_variables(here / name, root, found)
                    )
                except RtloptError as exc:  # not a filelist rtlopt can read: not proposed
                    found.unread.append(f"{rel} ({exc.message})")
                    continue
                found.filelists.append(rel)
                for k, v in lst.defines.items():
                    item = f"{k}={v}" if v else k
                    if item not in found.defines:
                        found.defines.append(item)
    # `include "common_cells/registers.svh"` reads from include/, not include/common_cells/
    for folder in include_roots(sources, headers):
        rel_dir = folder.relative_to(root).as_posix()
        if rel_dir not in found.include_dirs:
            found.include_dirs.append(rel_dir)
    defines = dict(d.partition("=")[::2] for d in found.defines)
    scan = scan_sources(root, sources, [root / d for d in found.include_dirs], defines)
    found.unparsed, found.duplicates = scan.unparsed, scan.duplicates
    return found


#: ``project.exclude``'s default, kept when init writes the key.
_EXCLUDED = ProjectConfig().exclude


def _variables(path: Path, root: Path, found: Detected) -> dict[str, str]:
    """The values of the filelist's variables (``${DESIGN_RTL_DIR}``): those chosen for an
    earlier filelist, else the first guess (:func:`rtlopt.frontend.guess_variables`), recorded
    in ``found``; absolute paths, as ``project.filelist_vars`` resolves them."""
    from rtlopt.config import ProjectConfig
    from rtlopt.frontend import filelist_variables, guess_variables

    known = {v.partition("=")[0] for v in found.variables}
    for name, values in guess_variables(path, root, sorted(known)).items():
        if values:
            found.variables.append(f"{name}={values[0]}")
            found.alternatives[name] = values[1:]
    return filelist_variables(ProjectConfig(filelist_vars=tuple(found.variables)), root)


def config_text(found: Detected) -> str:
    """The starting rtlopt.toml."""

    def arr(items: list[str]) -> str:
        return json.dumps(items)

    return f"""\
# rtlopt configuration, written by `rtlopt init`. Review it, then commit it in a commit of
# its own: `rtlopt check` judges every change by the configuration of the revision it compares
# against, and reports a change to this file (or a filelist) as a finding.

[project]
# filelists (.f) with sources, +incdir+ and +define+
# (their defines: {", ".join(found.defines) or "none"})
filelists = {arr(found.filelists)}
# values of the filelists' ${{NAME}} variables (folders relative to the repository root)
{_alternatives(found)}filelist_vars = {arr(found.variables)}
# folders holding headers (`include)
include_dirs = {arr(found.include_dirs)}
# defines (like -D NAME=VALUE) besides the filelists'
{_build_comments(found)}{_unparsed_comments(found)}defines = []
# files (globs) rtlopt does not read as sources (a copy of a module the build does not
# compile; an excluded testbench still counts, as one rtlopt does not elaborate)
{_duplicate_comments(found)}exclude = {arr(list(_EXCLUDED))}

[check]
# modules (names or file globs) that must stay equivalent to the base revision; "*" is every
# module. Narrow it to the optimization-only parts of the design, or require it per commit
# with an "Rtlopt-Equivalent: <module>" trailer.
optimization_only = ["*"]
# synthesize changed modules and fail when area x delay worsens by more than ppa_threshold
# (needs OpenSTA and a liberty file; false checks interfaces and equivalence only)
ppa = false
ppa_threshold = 0.02
"""


def _build_comments(found: Detected) -> str:
    """Comment lines naming the defines build files pass to a Verilog tool."""
    return "".join(
        f"# {rel} passes {' '.join(flags[:8])}\n" for rel, flags in found.build_defines[:6]
    )


def _unparsed_comments(found: Detected) -> str:
    """Comment lines naming sources that do not parse on their own (a define missing)."""
    return "".join(
        f"# {rel}:{line} does not parse on its own ({why})\n"
        for rel, line, why in found.unparsed[:8]
    )


def _duplicate_comments(found: Detected) -> str:
    """Comment lines naming the modules two files define."""
    return "".join(
        # not "module NAME": a text scan of the repository would read a declaration there
        f"# {n}: a module defined in {', '.join(fs)}\n"
        for n, fs in list(found.duplicates.items())[:8]
    )


def _alternatives(found: Detected) -> str:
    """Comment lines naming the other values found for each variable (configurations)."""
    lines = [
        f"# other values of {n}: {', '.join(v[:8])}{' ...' if len(v) > 8 else ''}\n"
        for n, v in found.alternatives.items()
        if v
    ]
    return "".join(lines)


def _print_builds(found: Detected) -> None:
    """What the build files and the sources say beyond the filelists (not applied)."""
    for rel, flags in found.build_defines[:6]:
        console.print(
            f"  [yellow]build defines (not applied):[/] {escape(rel)} passes "
            f"{escape(' '.join(flags[:8]))}: add the build's to \\[project] defines if rtlopt "
            "should check that build"
        )
    for rel, line, why in found.unparsed[:6]:
        console.print(
            f"  [yellow]does not parse on its own:[/] {escape(rel)}:{line} ({escape(why)}): "
            "a macro from another file or a build's define; give a testbench's defines in "
            "\\[project] defines, else its x is judged fail closed (read in part)"
        )
    for name, files in list(found.duplicates.items())[:6]:
        console.print(
            f"  [yellow]module {escape(name)} is defined in {escape(', '.join(files))}:[/] "
            "exclude the copy your build does not compile"
        )


@click.command()
@click.option(
    "--force", is_flag=True, default=False, help="Overwrite files that exist (default: keep them)."
)
@handle_errors
def init(force: bool) -> None:
    """Write a starting rtlopt.toml and the gate's pre-commit and CI files.

    Detects filelists, folders holding headers and the filelists' defines, writes
    rtlopt.toml (with a [check] section), .pre-commit-config.yaml and
    .github/workflows/rtlopt-check.yml, and prints what it detected. Existing files are kept
    unless --force.

    \b
    Examples:
      rtlopt init            # in the repository's top folder
      rtlopt init --force    # rewrite the files
    """
    from rtlopt.frontend import find_repo_root

    root = find_repo_root(Path.cwd())
    found = detect(root)
    if not found.sources:
        console.print(f"[red]rtlopt init: no .v/.sv file under {escape(str(root))}[/]")
        sys.exit(EXIT_USAGE)
    console.print(f"rtlopt init in {escape(str(root))}: {found.sources} Verilog sources")
    console.print(f"  filelists: {escape(', '.join(found.filelists) or 'none')}")
    console.print(f"  include folders: {escape(', '.join(found.include_dirs) or 'none')}")
    console.print(f"  defines (from the filelists): {escape(', '.join(found.defines) or 'none')}")
    if found.variables:
        console.print(f"  filelist variables (guessed): {escape(', '.join(found.variables))}")
    for why in found.unread:
        console.print(f"  [yellow]filelist not read:[/] {escape(why)}")
    _print_builds(found)
    if found.projects:
        shown = ", ".join(found.projects[:6]) + (" ..." if len(found.projects) > 6 else "")
        console.print(
            f"  [yellow]tool projects (their source lists are not read):[/] {escape(shown)}: "
            "list the sources of the build you use in a filelist (\\[project] filelists), or "
            "every top and testbench of the repository is one configuration"
        )
    files = {
        "rtlopt.toml": config_text(found),
        ".pre-commit-config.yaml": PRE_COMMIT,
        ".github/workflows/rtlopt-check.yml": WORKFLOW,
    }
    for rel, text in files.items():
        path = root / rel
        if path.exists() and not force:
            console.print(f"  kept {escape(rel)} (it exists; --force rewrites it)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        console.print(f"  wrote {escape(rel)}")
    console.print(
        "next: review rtlopt.toml, commit it, then `pre-commit install`; "
        "`rtlopt check` judges staged changes"
    )
    sys.exit(EXIT_OK)
