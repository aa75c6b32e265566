"""What the instance analysis finds: an input of the target an instance feeds x or z
(:mod:`rtlopt.frontend._open_inputs`), with the message it gives."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend._run_x import MayBeX

__all__ = ["OpenInput"]


@dataclass(frozen=True)
class OpenInput:
    """An input (or inout) port of the target that one instance feeds x or z.

    Attributes:
        instance: The instance's hierarchical name (``top.u``).
        port: The port's name.
        file: The file holding the instance.
        line: The instance's line in ``file``.
        value: The connected value with x/z bits as slang prints it; "" when the port is
            unconnected.
        definition: The module ``instance`` instantiates (the target's or a parent's).
        reaches: ``instance.port`` of the target's instance the value reaches through the
            parents' input ports ("" when ``instance`` is the target's own).
        net: The net or variable ``port`` is connected to when nothing drives it or only
            values with x/z bits do ("" when the connection itself is open or x).
        net_file: The file declaring ``net``.
        net_line: ``net``'s line in ``net_file``.
        bits: The bits of ``net`` fed x or z when not all of them are (``7:4``).
        via: The net or variable ``port`` is connected to when ``net`` is upstream of it
            (in its fan-in cone: ``assign w = r;``, ``r`` x), else "".
        kind: What x it is: "unconnected" (the port is left open), "z" (nothing drives
            ``net``), "x" (a value with x/z bits), "run" (x made at run time from defined
            operands, :mod:`rtlopt.frontend._run_x`), "powerup" (a register without reset
            or initial value, x until its first write, :mod:`rtlopt.frontend._powerup`),
            "switch" (a gate with a control or a switch: z), "udp" (a user-defined
            primitive), "delay" (x until a delayed first update or write,
            :mod:`rtlopt.frontend._x_drivers`), "latch", "never" or "initial" (a block
            leaving a variable x, :mod:`rtlopt.frontend._partial`), "unassigned" (a
            function's result or local some path leaves unassigned) or "loop" (a
            combinational loop, :mod:`rtlopt.frontend._comb_loop`).
        z: Some source of the input's fan-in cone may be z, this one or another one past it
            (:mod:`rtlopt.frontend._z_cone`; :func:`fed_ports`).
    """

    instance: str
    port: str
    file: Path
    line: int
    value: str = ""
    definition: str = ""
    reaches: str = ""
    net: str = ""
    net_file: Path | None = None
    net_line: int = 0
    bits: str = ""
    via: str = ""
    kind: str = ""
    z: bool = False

    def message(self, module: str, root: Path) -> str:
        fed, fix = self._parts(module, root)
        return (
            f"{fed}: the proofs and rtlopt's simulation drive every input with 0 or 1 only, "
            f"so a change in how {module} reads x is not checked; {fix}"
        )

    def source(self, module: str, root: Path) -> str:
        """Where and how the repository feeds the input x (the message's first part)."""
        return self._parts(module, root)[0]

    def _parts(self, module: str, root: Path) -> tuple[str, str]:
        where = _relative(self.file, root)
        fix = f"connect '{self.port}' of {self.instance} to a defined value in {where}"
        if self.net:
            at = _relative(self.net_file or self.file, root)
            fed = f"connects input '{self.port}' to '{self.via or self.net}', "
            if self.via:
                fed += f"which reads '{self.net}' ({at}, line {self.net_line}) (through "
                fed += "continuous assignments and always blocks), "
            else:
                fed = f"{fed[:-2]} ({at}, line {self.net_line}), "
            many = "s" if any(c in self.bits for c in ":,") else ""
            which = f"bit{many} {self.bits} of which" if self.bits else "which"
            if isinstance(self.value, MayBeX) and self.value.kind == "powerup":
                fed += f"{which} powers up x: {self.value.render(root)}"
            elif isinstance(self.value, MayBeX):
                xz = "z" if self.value.z else "x"
                fed += f"{which} may be {xz} at run time: {self.value.render(root)}"
            elif self.value:
                fed += f"{which} only a value with x/z bits drives ({self.value})"
            else:
                fed += f"{which} nothing drives (z, read as x)"
            fix = (
                f"drive '{self.net}' with a defined value in {at} (every bit; an assignment, "
                "or an output of an instance whose module drives it counts; an inout of the "
                "instance itself does not)"
            )
        elif isinstance(self.value, MayBeX):
            xz = "z" if self.value.z else "x"
            fed = f"connects input '{self.port}' to a value that may be {xz} at run time: "
            fed += self.value.render(root)
        elif self.value:
            fed = f"ties input '{self.port}' to {self.value}, a value with x/z bits"
        else:
            fed = f"leaves input '{self.port}' unconnected (z, read as x)"
        if isinstance(self.value, MayBeX):
            fix = (
                f"make what feeds '{self.port}' of {self.instance} defined for every value "
                "its operands take (an index that stays within the declared range, a divisor "
                "that is a nonzero constant, one driver per net, a function that assigns its "
                "result on every path)"
            )
            if self.value.fix:
                name = f"what feeds '{self.port}' of {self.instance}"
                if self.net:
                    name = f"'{self.net}' ({_relative(self.net_file or self.file, root)})"
                fix = f"make {name} defined: {self.value.fix}"
        of = self.definition or module
        if self.reaches:
            inst, _, port = self.reaches.rpartition(".")
            fed += f", which reaches input '{port}' of {module} ({inst})"
        return (
            f"the repository's instance {self.instance} of {of} ({where}, line {self.line}) {fed}",
            fix,
        )


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)
