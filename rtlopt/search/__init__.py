"""rtlopt.search."""
