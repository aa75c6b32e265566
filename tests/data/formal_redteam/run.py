"""Run rtlopt's formal check on REF CAND [MODULE]; print verdict, method, reason."""

import logging
import shutil
import sys
import tempfile
from pathlib import Path

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design


def main() -> None:
    ref, cand = Path(sys.argv[1]), Path(sys.argv[2])
    mod = sys.argv[3] if len(sys.argv) > 3 else "t"
    if "-v" in sys.argv:
        logging.basicConfig(level=logging.DEBUG, format="%(name)s: %(message)s")
        for n in ("rtlopt.tools",):
            logging.getLogger(n).setLevel(logging.INFO)
    tmp = Path(tempfile.mkdtemp())
    repo = tmp / "repo"
    repo.mkdir()
    shutil.copy(ref, repo / "t.v")
    d = load_design(repo / "t.v", mod, ProjectConfig())
    t = d.target
    print("clocks", t.clocks, "resets", t.resets, "active_low", t.reset_active_low)
    r = check_equivalence(d, [cand], tmp / "f", FormalConfig(timeout_s=120))
    print("VERDICT", r.verdict.name, "| method:", r.method, "| reason:", r.reason[:300])
    if r.counterexample:
        print("cex", dict(list(r.counterexample.items())[:12]))


main()
