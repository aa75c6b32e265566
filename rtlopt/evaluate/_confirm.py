"""The second proof of a kept design, on the files the first proof read.

A kept design (the one ``optimize`` writes back, a module ``check`` passes) is staged as an
evaluation stages a candidate (the compile stage picks its library files and, for
SystemVerilog, its view), and the same design, files and options go to
:func:`rtlopt.formal.second.confirm_proof`. It runs once per kept design, never per candidate.
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._candidate import Candidate, Progress
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._stages import compile_stage, preprocess_stage
from rtlopt.formal.second import SecondProof, confirm_proof
from rtlopt.results import FormalResult

__all__ = ["confirm"]


def confirm(s: EvalSetup, text: str, d: Path, first: FormalResult) -> SecondProof:
    """The second proof of ``text``, whose first proof is ``first``, in the folder ``d``."""
    c = Candidate(text, d, d / "candidate.v", Progress())
    c.file.write_text(text)
    # the same text the first proof read: preprocessed as an evaluation does, beside the same
    # preprocessed reference (never a reference rebuilt from the repository's directives)
    rejected = preprocess_stage(s, c) or compile_stage(s, c)
    if rejected is not None:
        return SecondProof(False, "", f"unchecked: the design did not stage: {rejected.reason}", 0)
    cfg = s.config
    return confirm_proof(
        s.tools,
        [*c.lib, c.file],
        d / "second",
        cfg.formal,
        first,
        reference_file=s.formal_reference,
        initial_values=cfg.harness.initial_values,
    )
