"""``python -m rtlopt``."""

from rtlopt.cli import main

main()
