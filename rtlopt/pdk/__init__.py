"""rtlopt.pdk."""
