"""rtlopt.train."""
