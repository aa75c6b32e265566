"""rtlopt.frontend."""
