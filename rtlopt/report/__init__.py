"""rtlopt.report."""
