"""The gate's fail-closed rule on build files (any file neither Verilog nor documentation), on
builds running git, and on directives written after other code on their line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtlopt.check._build_files import (
    build_change_findings,
    build_checks,
    is_documentation,
)
from rtlopt.check._metadata_reads import metadata_steering
from rtlopt.check._midline_directives import midline_directive_findings, midline_lines


@pytest.mark.parametrize(
    ("rel", "status"),
    [
        ("Makefile", "M"),  # a new first rule, .DEFAULT_GOAL: no tool line changes
        ("GNUmakefile", "A"),  # read before the Makefile
        ("run_tests.sh", "M"),  # the goal a script asks for
        ("fast.flag", "A"),  # an empty marker a wildcard or [ -e ] tests
        ("defs/FAST_INV.def", "A"),  # a name the build turns into a define
        ("tools/fast", "M"),  # a mode-only change (chmod +x)
        ("files.txt", "D"),
        ("old.f", "R"),
    ],
)
def test_build_file_changes_are_findings(rel: str, status: str) -> None:
    found = build_change_findings({rel: status})
    assert [r for r, _ in found] == [rel]
    assert "--trust-config" in found[0][1]


@pytest.mark.parametrize("rel", ["README.md", "docs/guide.rst", "LICENSE", "inv.v", "p.svh"])
def test_documentation_and_verilog_are_no_build_change(rel: str) -> None:
    assert build_change_findings({rel: "M"}) == []


def test_an_added_or_deleted_documentation_file_is_a_finding() -> None:
    # a marker a build tests ([ -e fast.md ]) may have any name
    assert [r for r, _ in build_change_findings({"fast.md": "A", "old.rst": "D"})] == [
        "fast.md",
        "old.rst",
    ]


def test_documentation_names() -> None:
    assert is_documentation("README") and is_documentation("doc/x.md")
    assert not is_documentation("files.txt") and not is_documentation("Makefile")


@pytest.mark.parametrize(
    "text",
    [
        'sim:\n\tif git log -1 --format=%B | grep -q "^Variant: fast"; then \\\n'
        "\t  iverilog -DFAST_INV -o sim inv.v; else iverilog -o sim inv.v; fi\n",
        'FAST := $(shell git log -1 --format=%B | grep -c "^Variant: fast")\n'
        "ifeq ($(FAST),1)\nDEFS += -DFAST_INV\nendif\n",
        "V := $(shell git show --name-only HEAD | grep -c fast)\n"
        "FLAGS = $(V)\nsim:\n\tiverilog -DV=$(FLAGS) inv.v\n",
        "git log -1 | grep -q fast && iverilog -DFAST_INV inv.v\n",
        "msg = subprocess.run(['git', '-C', d, 'log', '-1'], capture_output=True).stdout\n"
        "if b'fast' in msg:\n    args.append('-DFAST_INV')\n",
        "    if: contains(github.event.head_commit.message, 'fast')\n      run: iverilog -DF x.v\n",
        "    if: contains(toJSON(github.event), 'fast')\n      run: echo DEFS=-DFAST >> $GITHUB_ENV\n",
        "S := $(shell git for-each-ref --points-at=HEAD --format='%(subject)')\n"
        "ifneq ($(findstring fast,$(S)),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell git reflog -1 --format=%s)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell G=git; $$G log -1 --format=%s)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell git -C . log -1)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell git -c core.pager=cat log -1)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell git diff-index --name-only HEAD~1)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell git --git-dir .git log -1)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "S := $(shell /usr/bin/git log -1)\nifneq ($(S),)\nDEFS += -DFAST\nendif\n",
        "pre:\n\tgit log -1 --format=%s > subject.txt\n"
        "ifneq ($(findstring fast,$(file < subject.txt)),)\nDEFS += -DFAST\nendif\n",
        "path = os.environ.get('GITHUB_EVENT_PATH')\nsubprocess.run(['iverilog', *defs, 'm.v'])\n",
        "ifeq ($(GITHUB_HEAD_REF),fast)\nDEFS += -DFAST_INV\nendif\n",
    ],
)
def test_a_build_choosing_by_the_commits_metadata_is_found(tmp_path: Path, text: str) -> None:
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "Makefile").write_text("all:\n\ttrue\n" + text)
    (tmp_path / "README.md").write_text("if git log | grep x; then iverilog -DX; fi\n")
    found = metadata_steering(tmp_path)
    lines = ("all:\n\ttrue\n" + text).replace("\\\n", " ").split("\n")
    line = next(i for i, ln in enumerate(lines, 1) if re.search("git|message|GITHUB|github", ln))
    assert [(rel, at) for rel, at, _ in found] == [("sim/Makefile", line)], found


@pytest.mark.parametrize(
    "text",
    [
        "deps:\n\tcd fesvr && git checkout 1c02bd6 && ./configure\n",
        "changed=$(git diff --name-only origin/main)\necho $changed\n",
        'lint:\n\ttest -z "$$F" || git diff -U0 | clang-format-diff -p1\n',
        "cmd = ['git', 'rev-parse', '--show-toplevel']\nif cmd:\n    pass\n",
        "TOP := $(shell git rev-parse --show-toplevel)\nsim:\n\tiverilog -I$(TOP)/inc inv.v\n",
        "sim:\n\tiverilog -o digit.vvp inv.v\n",
        # a CI job checks a pull request out detached: git's branch name is no input there
        "B := $(shell git rev-parse --abbrev-ref HEAD)\nifeq ($(B),main)\nX=1\nendif\n",
    ],
)
def test_git_readings_that_choose_nothing_are_no_finding(tmp_path: Path, text: str) -> None:
    (tmp_path / "Makefile").write_text(text)
    (tmp_path / "inv.v").write_text("// git log\nmodule inv; endmodule\n")
    assert metadata_steering(tmp_path) == []


_PY = "if r:\n    iverilog('-DFAST')\n"
_CHOOSE = "ifneq ($(findstring fast,$(S)),)\nDEFS += -DFAST\nendif\nsim:\n\tiverilog $(DEFS) m.v\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # a program named by a variable assigned on another line, any depth, any operator
        ("VCS := git\nS := $(shell $(VCS) log -1 --format=%s)\n" + _CHOOSE, 2),
        ("GIT ?= git\nS := $(shell $(GIT) log -1 --format=%s)\n" + _CHOOSE, 2),
        ("A = /usr/bin/git\nB := $(A)\nC += $(B)\nS := $(shell $(C) log -1)\n" + _CHOOSE, 4),
        ("S := $(shell $${GIT:-git} log -1 --format=%s)\n" + _CHOOSE, 1),
        ("HG := $(shell which hg)\nS := $(shell $(HG) log -l 1)\n" + _CHOOSE, 2),
        # Make's recipe prefixes before the command
        (
            "sim:\n\t@git log -1 --format=%s > s.txt\n\tiverilog $$(grep -q f s.txt && echo -DF) m.v\n",
            2,
        ),
        (
            "sim:\n\t-git log -1 --format=%s > s.txt\n\tiverilog $$(grep -q f s.txt && echo -DF) m.v\n",
            2,
        ),
        (
            "sim:\n\t+git log -1 --format=%s > s.txt\n\tiverilog $$(grep -q f s.txt && echo -DF) m.v\n",
            2,
        ),
        # CI services' metadata variables by what their names say
        *[
            (
                f"ifneq ($(findstring fast,$({v})),)\nDEFS += -DFAST\nendif\nsim:\n\tiverilog $(DEFS) m.v\n",
                1,
            )
            for v in (
                "BUILDKITE_MESSAGE",
                "GIT_BRANCH",
                "CIRCLE_BRANCH",
                "GITHUB_REF",
                "GITHUB_REF_NAME",
                "CHANGE_BRANCH",
                "BUILD_SOURCEBRANCHNAME",
                "SEMAPHORE_GIT_BRANCH",
                "DRONE_SOURCE_BRANCH",
                "BUILDKITE_BRANCH",
                "CI_COMMIT_TAG",
                "SOME_CI_PR_TITLE",
                "Build.SourceBranchName",
            )
        ],
        ("S := $(CIRCLE_TAG)\n" + _CHOOSE, 1),
        ("S := $(GIT_BRANCH:origin/%=%)\n" + _CHOOSE, 1),
        ("S := $(shell printenv BUILDKITE_MESSAGE)\n" + _CHOOSE, 1),
        ("vcs = git\nS := $(shell $(call vcs) log -1)\n" + _CHOOSE, 2),
        ("alias g=git\nif g log -1 | grep -q fast; then iverilog -DFAST m.v; fi\n", 2),
        ('g() { git "$@"; }\nif g log -1 | grep -q fast; then iverilog -DFAST m.v; fi\n', 2),
        ("      - if: contains(github['ref_name'], 'fast')\n        run: iverilog -DFAST m.v\n", 1),
        (
            "- script: iverilog -DFAST m.v\n"
            "  condition: eq(variables['Build.SourceBranchName'], 'fast')\n",
            2,
        ),
        ('sim:\n\tif [ "$$BUILDKITE_MESSAGE" = fast ]; then iverilog -DF m.v; fi\n', 2),
        ("      - if: contains(github.ref_name, 'fast')\n        run: iverilog -DFAST m.v\n", 1),
        ("      - if: endsWith(github.ref, 'fast')\n        run: iverilog -DFAST m.v\n", 1),
        # VCS and forge programs and libraries as one set
        ("S := $(shell gh pr view --json title --jq .title)\n" + _CHOOSE, 1),
        ("S := $(shell hub log -1)\n" + _CHOOSE, 1),
        ("S := $(shell glab mr view -F json)\n" + _CHOOSE, 1),
        ("S := $(shell jj log -r @ -T description)\n" + _CHOOSE, 1),
        ("S := $(shell sl log -l 1 -T {desc})\n" + _CHOOSE, 1),
        ("S := $(shell hg log -l 1 --template {desc})\n" + _CHOOSE, 1),
        ("S := $(shell node -e \"require('nodegit')\")\n" + _CHOOSE, 1),
        ("S := $(shell node -e \"require('isomorphic-git')\")\n" + _CHOOSE, 1),
        ("S := $(shell curl -s https://api.github.com/repos/o/r/commits/x)\n" + _CHOOSE, 1),
    ],
)
def test_metadata_through_variables_prefixes_ci_names_and_forge_programs_is_found(
    tmp_path: Path, text: str, line: int
) -> None:
    """The classes of round 83: a program named by a variable (any depth), Make's recipe
    prefixes, a CI service's metadata variable by its name, VCS and forge programs."""
    (tmp_path / "Makefile").write_text(text)
    assert [at for _, at, _ in metadata_steering(tmp_path)] == [line]


@pytest.mark.parametrize(
    "text",
    [
        # the build's own variables, a hardware "branch", the target branch
        "BRANCH := main\nifeq ($(BRANCH),main)\nDEFS += -DX\nendif\nsim:\n\tiverilog $(DEFS) m.v\n",
        "if { $lr_synth_branch_target_alu } {\n  yosys -p synth\n}\n",
        "for tag in a b; do iverilog -D$$tag m.v; done\n",
        "ifeq ($(GITHUB_BASE_REF),main)\nDEFS += -DX\nendif\nsim:\n\tiverilog $(DEFS) m.v\n",
        '  - run: ./lint-commits.sh "$GITHUB_BASE_REF"\n  - run: iverilog m.v\n',
        "REPO := https://github.com/o/r.git\nsim:\n\tiverilog -DX m.v\n",
        "sim:\n\tls -sl; iverilog -DX m.v\n",
    ],
)
def test_names_and_programs_that_are_no_commit_metadata_are_no_finding(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "Makefile").write_text(text)
    assert metadata_steering(tmp_path) == []


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # a VCS program whose command is no literal word: stdin (xargs), a variable, sh -c
        ("S := $(shell echo log -1 --format=%s | xargs git)\n" + _CHOOSE, 1),
        ("S := $(shell echo log | xargs -I{} git {} -1)\n" + _CHOOSE, 1),
        ("S := $(shell echo log -1 | xargs -d: git; true)\n" + _CHOOSE, 1),
        ("S := $(shell echo log -1 | xargs git|cat)\n" + _CHOOSE, 1),
        ("ARGS := log -1 --format=%s\nS := $(shell git $(ARGS))\n" + _CHOOSE, 2),
        ("S := $(shell sh -c 'git \"$$0\" -1' log)\n" + _CHOOSE, 1),
        ("S := $(shell git -c alias.co='log -1' co)\n" + _CHOOSE, 1),
        ("S := $(shell hg $(ARGS))\n" + _CHOOSE, 1),
        ("S := $(shell hg --config=alias.update=log update)\n" + _CHOOSE, 1),
        ("S := $(shell $(GIT) $(ARGS))\n" + _CHOOSE, 1),
        # git's dashed programs, by a path or by name
        ("S := $(shell /usr/lib/git-core/git-log -1 --format=%s)\n" + _CHOOSE, 1),
        ("S := $(shell git-show -s --format=%s)\n" + _CHOOSE, 1),
        # a revision argument searching the messages or the reflog, whatever the command
        ("S := $(shell git rev-parse -q --verify 'HEAD^{/fast}')\n" + _CHOOSE, 1),
        ("S := $(shell git rev-parse -q --verify :/fast)\n" + _CHOOSE, 1),
        ("S := $(shell git rev-parse 'HEAD@{1}')\n" + _CHOOSE, 1),
        # round 85: the search written with the shell's escapes or quotes, held by a variable
        ("S := $(shell git rev-parse -q --verify HEAD^\\{/fast\\})\n" + _CHOOSE, 1),
        ("S := $(shell git rev-parse -q --verify HEAD^'{/'fast})\n" + _CHOOSE, 1),
        ('S := $(shell git rev-parse -q --verify :"/fast")\n' + _CHOOSE, 1),
        ("Q := ^{/fast}\nS := $(shell git rev-parse -q --verify HEAD$(Q))\n" + _CHOOSE, 2),
        ("Q := :/fast\nS := $(shell git rev-parse -q --verify $(Q))\n" + _CHOOSE, 2),
        ("S := $(shell git rev-parse -q --verify HEAD`cat q`)\n" + _CHOOSE, 1),
        ('sim:\n\tif git rev-parse -q --verify "$$R"; then iverilog -DF m.v; fi\n', 2),
        ("S := $(shell cat r.txt | xargs git rev-parse -q --verify)\n" + _CHOOSE, 1),
        ("S := $(shell hg update -r 'desc(fast)' && cat f)\n" + _CHOOSE, 1),
        ("S := $(shell hg up $(R) && cat f)\n" + _CHOOSE, 1),
        ("S := $(shell git restore --source=HEAD$(Q) f; cat f)\n" + _CHOOSE, 1),
        ("r = check_output(['git', 'rev-parse', '-q', '--verify', 'HEAD' + q])\n" + _PY, 1),
        ("r = check_output(['git', 'rev-parse', '-q', '--verify', rev])\n" + _PY, 1),
        ("r = check_output(['git', 'rev-parse', '-q', '--verify'] + [rev])\n" + _PY, 1),
        ('r = check_output(f"git rev-parse -q --verify HEAD{q}", shell=True)\n' + _PY, 1),
        ('r = check_output("git rev-parse -q --verify " + rev, shell=True)\n' + _PY, 1),
        # round 85: git archive prints the subject into a file marked export-subst
        ("S := $(shell git archive HEAD subject.txt | tar -xO)\n" + _CHOOSE, 1),
        # commands printing the subject of the commit they reach ("HEAD is now at 863ef98 fast")
        ("S := $(shell git reset --hard HEAD)\n" + _CHOOSE, 1),
        ("S := $(shell git checkout HEAD~0 2>&1)\n" + _CHOOSE, 1),
        ("S := $(shell git switch --detach HEAD 2>&1)\n" + _CHOOSE, 1),
        ("S := $(shell git worktree add ../w HEAD 2>&1)\n" + _CHOOSE, 1),
        ("S := $(shell git stash list)\n" + _CHOOSE, 1),
        ("S := $(shell git commit --amend --no-edit)\n" + _CHOOSE, 1),
        # a computed variable name, the whole environment read
        (
            "K := MESSAGE\nifneq ($(findstring fast,$(BUILDKITE_$(K))),)\nDEFS += -DFAST\nendif\n"
            "sim:\n\tiverilog $(DEFS) m.v\n",
            2,
        ),
        ('sim:\n\tif [ "$${!N}" = fast ]; then iverilog -DF m.v; fi\n', 2),
        ("S := $(shell env | grep '^BUILDKITE_MESSAGE=.*fast')\n" + _CHOOSE, 1),
        ("S := $(shell printenv | grep fast)\n" + _CHOOSE, 1),
        ("S := $(foreach v,$(.VARIABLES),$(findstring fast,$($(v))))\n" + _CHOOSE, 1),
        ("sim:\n\tif set | grep -q fast; then iverilog -DF m.v; fi\n", 2),
        ("S := $(shell printenv $$N)\n" + _CHOOSE, 1),
        ("S := $(shell eval echo \\$$BUILDKITE_$$K)\n" + _CHOOSE, 1),
        ("if (JSON.stringify(process.env).includes('fast')) iverilog('-DF')\n", 1),
        ("if ENV.to_h.to_s.include?('fast') then iverilog('-DF') end\n", 1),
        (
            "env = os.environ.copy()\nif any('fast' in v for v in env.values()):\n    iverilog('-DF')\n",
            2,
        ),
        ("k = 'MESSAGE'\nif 'fast' in os.environ[f'BUILDKITE_{k}']:\n    iverilog('-DF')\n", 2),
        ("if 'fast' in get_env_var('BUILDKITE_MESSAGE'):\n    iverilog('-DF')\n", 1),
        ("build_opts: ['+define+{BUILDKITE_MESSAGE}']\nrun: iverilog -DX m.v\n", 1),
        # a Make define block is a variable like any other
        ("define SUBJ\ngit log -1 --format=%s\nendef\nS := $(shell $(SUBJ))\n" + _CHOOSE, (2, 4)),
        ("define G\ngit\nendef\nS := $(shell $(G) log -1)\n" + _CHOOSE, 4),
        (
            "define PICK\nifneq ($(findstring fast,$(shell git log -1)),)\nDEFS += -DFAST\nendif\n"
            "endef\n$(eval $(PICK))\nsim:\n\tiverilog $(DEFS) m.v\n",
            2,
        ),
    ],
)
def test_unknown_vcs_commands_and_computed_or_whole_environment_reads_are_found(
    tmp_path: Path, text: str, line: int | tuple[int, ...]
) -> None:
    """The classes of round 84, failed closed: a VCS program whose command is no literal
    word known to read no metadata, a revision searching the messages, a computed variable
    name or the whole environment read, a Make define block."""
    (tmp_path / "Makefile").write_text(text)
    lines = [line] if isinstance(line, int) else list(line)
    assert [at for _, at, _ in metadata_steering(tmp_path)] == lines


@pytest.mark.parametrize(
    "text",
    [
        'py = os.environ.get("PY")\nfor k, v in os.environ.items():\n    print(k)\n',
        "ifeq ($(shell which git),)\nDEFS += -DX\nendif\nsim:\n\tiverilog $(DEFS) m.v\n",
        "V := $(shell git --version)\nsim:\n\tiverilog -DV=$(V) m.v\n",
        "env = os.environ.copy()\nsubprocess.run(['iverilog', '-DX', 'm.v'], env=env)\n",
        "sim:\n\tenv VERILATOR_ROOT=/x iverilog -DX m.v\n",
        "jj = cfg.get(x)\nif jj:\n    iverilog('-DX')\n",
        "for (jj = 0; jj < n; jj++) {\n  iverilog(jj);\n}\n",
        "I/src/env\nsim:\n\tiverilog -DX m.v\n",
        "define T\nOK_$(1) := $$(shell true)\nifeq ($$(OK_$(1)),0)\nDEFS += -DX\nendif\nendef\n"
        "$(eval $(call T,a))\nsim:\n\tiverilog $(DEFS) m.v\n",
        "for v in ['PRJ_DIR']:\n    if os.getenv(v) is None:\n        iverilog('-DX')\n",
        '"type": "git",\nsim:\n\tiverilog -DX m.v\n',
        'if test "${PATH_SEPARATOR+set}" != set; then iverilog -DX m.v; fi\n',
        # a variable only in another command
        "S := $(shell git clone $(URL) $(D) && echo ok)\n" + _CHOOSE,
        "S := $(shell hg update -r 1a2b3c && cat f)\n" + _CHOOSE,
    ],
)
def test_program_lookups_and_environment_passing_are_no_finding(tmp_path: Path, text: str) -> None:
    (tmp_path / "Makefile").write_text(text)
    assert metadata_steering(tmp_path) == []


def test_build_checks_make_every_commit_a_finding_where_a_build_reads_the_message(
    tmp_path: Path,
) -> None:
    """A changed Makefile is a finding (none when trusted); an edited README beside a build
    choosing by the commit's message is one too (the commit's message steers the build)."""
    (tmp_path / "Makefile").write_text("all:\n\tgit log -1 --format=%B > msg\n")
    found = build_checks({"Makefile": "M"}, tmp_path, lambda rel: None, trusted=False)
    assert [m.change for m in found] == ["build"]
    assert build_checks({"Makefile": "M"}, tmp_path, lambda rel: None, trusted=True) == []
    assert build_checks({"README.md": "M"}, tmp_path, lambda rel: None, trusted=False) == []
    (tmp_path / "Makefile").write_text(
        "all:\n\tif git log -1 --format=%B | grep -q fast; then iverilog -DF x.v; fi\n"
    )
    found = build_checks({"README.md": "M"}, tmp_path, lambda rel: None, trusted=False)
    assert [m.file for m in found] == ["Makefile"] and "metadata" in found[0].findings[0]
    assert build_checks({"README.md": "M"}, tmp_path, lambda rel: None, trusted=True) == []


def _midline(tmp_path: Path, old: str, new: str, status: str = "M") -> list[tuple[str, str]]:
    (tmp_path / "defs.v").write_text(new)
    return midline_directive_findings({"defs.v": status}, lambda rel: old, tmp_path)


def test_define_after_other_code_is_a_finding(tmp_path: Path) -> None:
    found = _midline(tmp_path, "`timescale 1ns/1ps\n", "`timescale 1ns/1ps `define FAST_INV\n")
    assert [r for r, _ in found] == ["defs.v"] and "FAST_INV" in found[0][1]
    # removing one is a finding too, and so is a new file holding one
    assert _midline(tmp_path, "wire a; `define X\n", "wire a;\n")
    assert _midline(tmp_path, "", "module m; endmodule `ifdef X\n", status="A")


def test_reindented_or_own_line_directives_are_no_finding(tmp_path: Path) -> None:
    old = "`timescale 1ns/1ps  `define A 1\nmodule m;\nendmodule\n"
    assert (
        _midline(tmp_path, old, "  `timescale   1ns/1ps `define A 1\nmodule m;\n endmodule\n") == []
    )
    assert _midline(tmp_path, "`timescale 1ns/1ps\n", "`timescale 1ns/1ps\n`define FAST\n") == []
    assert _midline(tmp_path, "", 'wire a; // `define X\nwire b = "`define";\n') == []
    assert midline_lines("`ifdef A `define B `endif\n")


@pytest.mark.parametrize("rel", ["m.v", "inc/p.svh", "README.md", "docs/x.rst"])
def test_a_mode_change_of_a_verilog_or_documentation_file_is_a_finding(rel: str) -> None:
    """Round 79 cases 09, 10: a build may test the mode (``[ -x m.v ]``)."""
    found = build_change_findings({rel: "M"}, modes={rel: ("100644", "100755")})
    assert [r for r, _ in found] == [rel]
    assert "its mode changed (100644 -> 100755;" in found[0][1]
    assert build_change_findings({rel: "M"}) == []


def test_a_type_change_of_a_verilog_file_is_a_finding() -> None:
    """Round 79 case 10: a file to a link (a documentation file's: the links' rule)."""
    found = build_change_findings({"m.v": "T", "README.md": "T"})
    assert [r for r, _ in found] == ["m.v"] and "its type changed" in found[0][1]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # the commit's hash, which a committer grinds with a nonce in the message (round 86
        # case 10), whole or in part, as a define's value or a choice
        ("S := $(shell git rev-parse HEAD | cut -c1)\n" + _CHOOSE, 1),
        ("HASH := $(shell git rev-parse --short HEAD)\nsim:\n\tiverilog -DHASH=$(HASH) m.v\n", 1),
        (
            "GIT := git\nHASH := $(shell $(GIT) rev-parse --short HEAD)\nsim:\n\tiverilog -DH=$(HASH) m.v\n",
            2,
        ),
        ("S := $(shell git -C $(D) rev-parse --short=$(N) HEAD)\n" + _CHOOSE, 1),
        ("S := $(shell git rev-parse HEAD; echo $(X))\n" + _CHOOSE, 1),
        ("sim:\n\tiverilog -DV=`git rev-parse HEAD` -DY=$(Y) m.v\n", 2),
        ("r = check_output(['git', 'rev-parse', 'HEAD^{commit}'], cwd=d + '/x')\n" + _PY, 1),
        # a message search after a range or an option's short value (cases 03, 04)
        ("S := $(shell git rev-parse -q HEAD..:/fast >/dev/null 2>&1 && echo y)\n" + _CHOOSE, 1),
        ("S := $(shell git restore -s:/fast -- rtlopt.toml 2>/dev/null && echo y)\n" + _CHOOSE, 1),
        # round 87: other commands printing the hash; an exempting word as a redirection's file
        ('S := $(shell git merge-base HEAD HEAD | grep -q "^[0-7]" && echo y)\n' + _CHOOSE, 1),
        (
            'S := $(shell git status --porcelain=v2 --branch | grep -q "oid [0-7]" && echo y)\n'
            + _CHOOSE,
            1,
        ),
        (
            'S := $(shell git rev-parse HEAD 2> --abbrev-ref | grep -q "^[0-7]" && echo y)\n'
            + _CHOOSE,
            1,
        ),
        # round 88: --abbrev-ref after the revision; git's own folder read for the reflog
        (
            'S := $(shell git rev-parse HEAD --abbrev-ref | grep -q "^[0-7]" && echo y)\n'
            + _CHOOSE,
            1,
        ),
        (
            "S := $(shell tail -1 $$(git rev-parse --git-dir)/logs/HEAD | grep -q f && echo y)\n"
            + _CHOOSE,
            1,
        ),
        # round 89 case 07: the tree's hash, which a documentation edit grinds
        ('S := $(shell git write-tree | grep -q "^[0-7]" && echo y)\n' + _CHOOSE, 1),
        ('S := $(shell git ls-tree HEAD | md5sum | grep -q "^[0-7]" && echo y)\n' + _CHOOSE, 1),
        ('S := $(shell git hash-object README.md | grep -q "^[0-7]" && echo y)\n' + _CHOOSE, 1),
        # round 90 case 08: git's folder entered, its refs read
        ('S := $(shell cd .git && cat refs/heads/* | grep "^[0-7]")\n' + _CHOOSE, 1),
        # round 91: an escaped program name, an option before git's folder, a program
        # named by a computed value
        ("S := $(shell g\\it log -1 --format=%s | grep fast)\n" + _CHOOSE, 1),
        ('S := $(shell perl -e "print qx{g\\x69t log -1 --format=%s}")\n' + _CHOOSE, 1),
        ('S := $(shell cd -P .git && cat $$(cut -c6- HEAD) | grep "^[0-7]")\n' + _CHOOSE, 1),
        # round 92: git's folder under the working folder's path, quotes and an empty
        # variable inside git's name
        ('S := $(shell cd $(CURDIR)/.git && cat $$(cut -c6- HEAD) | grep "^[0-7]")\n' + _CHOOSE, 1),
        ("S := $(shell g''it log -1 --format=%s | grep fast)\n" + _CHOOSE, 1),
        ("S := $(shell gi$(E)t log -1 --format=%s | grep fast)\n" + _CHOOSE, 1),
        ("S := $(shell $(join g,it) log -1 --format=%s | grep fast)\n" + _CHOOSE, 1),
        (
            "G := $(subst x,i,gxt)\nC := $(subst x,o,lxg)\n"
            "S := $(shell $(G) $(C) -1 --format=%s | grep fast)\n" + _CHOOSE,
            3,
        ),
    ],
)
def test_a_read_of_the_commits_hash_or_a_message_search_steers(
    tmp_path: Path, text: str, line: int
) -> None:
    (tmp_path / "Makefile").write_text(text)
    assert [at for _, at, _ in metadata_steering(tmp_path)] == [line]


@pytest.mark.parametrize(
    ("run", "found"),
    [
        ("S := $(shell python3 sel.py)\n", True),
        ("S := $(shell ./tools/sel.py)\n", True),
        ("S := $(shell python3 -m sel)\n", True),  # round 87 case 07
        ("S := $(shell python3 ./s?l.py)\n", True),  # round 88 case 10: a glob
        ("S := $(shell python3 s$(X).py)\n", True),
        ("S := $(shell ./s?l.py)\n", True),  # round 89 case 08: a glob as the command
        # round 91: a name computed whole, by its variable's value and Make's functions
        ("F := $(addsuffix .py,sel)\nS := $(shell python3 ./$(F))\n", True),
        ("F := $(patsubst %.c,%.py,$(notdir x/sel.c))\nS := $(shell python3 $(F))\n", True),
        ("S := $(shell true; ./tools/s*.py)\n", True),
        ("PY ?= python3\nS := $(shell $(PY) sel.py)\n", True),
        # named, not for its output: a comment, a message; run, its output unused
        ("# see sel.py\nlint:\n\techo sel.py\n", False),
        ('lint:\n\tpython3 sel.py --msg "run iverilog first"\n', False),
    ],
)
def test_a_script_reading_metadata_steers_where_a_steering_line_runs_it(
    tmp_path: Path, run: str, found: bool
) -> None:
    """Round 86 case 11: the revision is built from pieces in a script another build text
    runs for its output."""
    (tmp_path / "sel.py").write_text(
        'args = ["git", "rev-parse", "-q", "--verify"]\nargs.append("HEAD^{" + "/fast}")\n'
        "r = subprocess.run(args)\n"
    )
    (tmp_path / "Makefile").write_text(run + _CHOOSE)
    assert bool([r for r, _, _ in metadata_steering(tmp_path) if r == "sel.py"]) is found


def test_a_makefile_a_steering_line_names_is_read_not_run(tmp_path: Path) -> None:
    """A Makefile named on a steering line (a prerequisite, ``make -f``) is read by make, not
    run for its output: its own metadata-like lines steer only where they choose (ibex's
    riscv-tests Makefile, a computed variable name in a define block)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("T = $($(1)_tests)\nall:\n\ttrue\n")
    make = "sim: sub/Makefile\n\tiverilog -DX=$(shell cat Makefile) m.v\n"
    (tmp_path / "Makefile").write_text(make)
    assert metadata_steering(tmp_path) == []


def test_a_package_run_by_python_m_runs_its_main(tmp_path: Path) -> None:
    """Round 89 case 10: ``python3 -m tools`` runs ``tools/__main__.py``."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "__main__.py").write_text(
        'import subprocess\ns = subprocess.run(["git", "log", "-1", "--format=%s"]).stdout\n'
    )
    (tmp_path / "Makefile").write_text("S := $(shell python3 -m tools)\n" + _CHOOSE)
    assert [r for r, _, _ in metadata_steering(tmp_path)] == ["tools/__main__.py"]
    (tmp_path / "Makefile").write_text("S := $(shell python3 -m other)\n" + _CHOOSE)
    assert metadata_steering(tmp_path) == []


def test_a_comparison_with_a_number_writes_no_file(tmp_path: Path) -> None:
    """``if len(x) > 1`` in a script is no file ``1`` a setting line may read (it made the
    steering search read every line holding a ``1``); the script still steers where read."""
    (tmp_path / "sel.py").write_text(
        "import subprocess, sys\nif len(sys.argv) > 1:\n"
        "    s = subprocess.run(['git', 'log', '-1', '--format=%s']).stdout\n"
    )
    (tmp_path / "Makefile").write_text("S := $(shell python3 ./s?l.py)\n" + _CHOOSE)
    assert [r for r, _, _ in metadata_steering(tmp_path)] == ["sel.py"]


def test_a_script_the_environment_runs_before_each_line_steers(tmp_path: Path) -> None:
    """Round 90 case 05: bash sources ``$BASH_ENV`` before every recipe line, so a script
    it names by a computed name steers what it sets (``V``); autoconf's
    ``BASH_ENV=/dev/null`` runs nothing."""
    (tmp_path / "meta.sh").write_text("git log -1 --format=%s | grep -q fast && V=FAST\n")
    make = "SHELL := /bin/bash\nexport BASH_ENV := $(addsuffix .sh,$(CURDIR)/meta)\n"
    sim = "sim:\n\tiverilog -D$${V:-SLOW} m.v\n"
    (tmp_path / "Makefile").write_text(make + sim)
    assert [r for r, _, _ in metadata_steering(tmp_path)] == ["meta.sh"]
    (tmp_path / "Makefile").write_text("SHELL := /bin/bash\nBASH_ENV=/dev/null\n" + sim)
    assert metadata_steering(tmp_path) == []


def test_a_package_folder_run_by_python_runs_its_main(tmp_path: Path) -> None:
    """Round 90 case 11: ``python3 tools`` runs ``tools/__main__.py`` as ``-m tools`` does."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "__main__.py").write_text(
        'import subprocess\ns = subprocess.run(["git", "log", "-1", "--format=%s"]).stdout\n'
    )
    (tmp_path / "Makefile").write_text("S := $(shell python3 tools)\n" + _CHOOSE)
    assert [r for r, _, _ in metadata_steering(tmp_path)] == ["tools/__main__.py"]


def test_a_script_run_by_a_name_computed_whole_in_a_folder_steers(tmp_path: Path) -> None:
    """Round 91 case 05: ``. tools/$(F)`` runs any script of ``tools``."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "meta.sh").write_text("git log -1 --format=%s | grep fast\n")
    make = "F := $(addsuffix .sh,meta)\nS := $(shell . tools/$(F))\n" + _CHOOSE
    (tmp_path / "Makefile").write_text(make)
    assert [r for r, _, _ in metadata_steering(tmp_path)] == ["tools/meta.sh"]
