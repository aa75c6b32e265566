"""rtlopt: optimize Verilog/SystemVerilog modules with proven equivalence and measured PPA."""

__version__ = "0.1.0"
__all__ = ["__version__"]
