"""rtlopt.cli."""
