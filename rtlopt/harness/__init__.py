"""rtlopt.harness."""
