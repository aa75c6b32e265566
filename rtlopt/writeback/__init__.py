"""rtlopt.writeback."""
