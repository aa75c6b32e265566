"""YAML build texts: comments run nothing, ``env:`` keys are assigned."""

from __future__ import annotations

from rtlopt.check._yaml_text import is_yaml, yaml_code, yaml_env

WORKFLOW = """# a note naming .git/COMMIT_EDITMSG
env:
  TOOL_GIT: https://example.org/tool  # where from
jobs:
  a:
    steps:
      - run: |
          # a line of the script: $(git log -1)
          cat > h.vh <<EOF
          #define X
          EOF
        env:
          STEP_VAR: 1
          LONG: >
            NOT_A_KEY: y
      # a comment between steps
      - name: "two
          # lines of one quoted value"
"""


def test_comments_are_blank_where_yaml_reads_them_as_comments() -> None:
    code = yaml_code(WORKFLOW).split("\n")
    assert len(code) == len(WORKFLOW.split("\n"))
    assert code[0] == "" and code[15] == ""
    # a block scalar's lines and a quoted value's are content
    assert "$(git log -1)" in code[7] and code[9].strip() == "#define X"
    assert "# lines of one quoted value" in code[17]
    assert "# where from" in code[2]  # a comment after a value is left (read as before)


def test_env_keys_are_assigned_at_every_level() -> None:
    assert yaml_env(WORKFLOW) == {"TOOL_GIT", "STEP_VAR", "LONG"}
    assert yaml_env("env: {A: 1}\njobs: {}\n") == set()  # a flow mapping: not read (kept)


def test_yaml_by_suffix() -> None:
    assert is_yaml(".github/workflows/ci.yml") and is_yaml("x.YAML")
    assert not is_yaml("Makefile") and not is_yaml("a.yml.txt")
