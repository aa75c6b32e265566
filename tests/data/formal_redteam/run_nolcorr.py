"""run.py with the lcorr engine switched off (which engine decides without it)."""

import runpy
import sys

import rtlopt.formal.engines.lcorr as lc

lc.run = lambda job, share: None
sys.argv = ["run.py", *sys.argv[1:]]
runpy.run_path(str(__import__("pathlib").Path(__file__).with_name("run.py")), run_name="__main__")
