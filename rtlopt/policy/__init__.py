"""rtlopt.policy."""
