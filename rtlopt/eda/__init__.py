"""rtlopt.eda."""
