"""EDA tool wrappers and the PPA flow (the equivalence proof is :mod:`rtlopt.formal`).

- ``rtlopt.eda.iverilog``: compile and simulate with Icarus Verilog.
- ``rtlopt.eda.yosys``: synthesis to a liberty (Yosys binary or in-process pyosys).
- ``rtlopt.eda.opensta``: timing and power with OpenSTA.
- ``rtlopt.eda.flow``: ``PpaFlow``, synthesis + STA with long-lived workers.

Every tool starts through :func:`rtlopt.tools.run_tool` with the binary of
:func:`rtlopt.tools.require_tool`. Submodules are imported on use so that this package stays light.
"""

from __future__ import annotations

__all__ = ["flow", "opensta", "yosys"]
