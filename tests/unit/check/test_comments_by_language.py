"""The gate reads a build text's comments as its language does: a ``#`` inside a quoted
string is code (``echo "== regression #2"; iverilog -DFAST_INV``), by the lexer of the
file's language, or line by line with quotes followed where no lexer knows it."""

from rtlopt.check._build_options import option_problems
from rtlopt.check._code_view import code_view, strip_comment
from rtlopt.check._config_words import word_problems
from rtlopt.check._setting_variables import read_by_settings, variable_problems

OLD_SH = 'echo "== regression #2"; iverilog -o sim.vvp inv.v tb.v\n'
NEW_SH = 'echo "== regression #2"; iverilog -DFAST_INV -o sim.vvp inv.v tb.v\n'


def test_hash_in_a_shell_string_hides_no_option() -> None:
    assert option_problems("run_sim.sh", OLD_SH, NEW_SH)


def test_hash_in_a_make_recipe_string_hides_no_option() -> None:
    old = 'sim:\n\techo "step #1"; iverilog -o s inv.v\n'
    assert option_problems("Makefile", old, old.replace("-o s", "-DFAST_INV -o s"))


def test_hash_in_a_python_string_hides_no_word() -> None:
    old = 'print("step #1"); run(defines={})\n'
    new = 'print("step #1"); run(defines={"FAST_INV": 1})\n'
    words = {"FAST_INV": "the macro FAST_INV, which inv.v reads"}
    assert word_problems("sim.py", old, new, words)


def test_a_real_comment_still_sets_nothing() -> None:
    old = 'echo "a"  # iverilog\n'
    assert not option_problems("run_sim.sh", old, 'echo "a"  # iverilog -DFAST_INV\n')
    assert code_view("run_sim.sh", old).rstrip() == 'echo "a"'


def test_unknown_language_follows_quotes() -> None:
    assert strip_comment('run "#2" -DFAST_INV') == 'run "#2" -DFAST_INV'
    assert strip_comment("run x # -DFAST_INV") == "run x "
    assert strip_comment("run 'it #1 -DFAST_INV") == "run 'it #1 -DFAST_INV"


def test_variable_read_after_a_quoted_hash() -> None:
    settings = read_by_settings(['echo "step #1"; iverilog -D$(VARIANT)_INV tb.v'], {})
    assert "VARIANT" in settings
    assert variable_problems("Makefile", "VARIANT := SLOW\n", "VARIANT := FAST\n", settings)
