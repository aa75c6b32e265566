"""What this machine has: host memory (available and physical) and a CUDA card's memory,
the capacities the memory plans of ``policy._memory`` are checked against."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_ram_bytes", "cuda_card_bytes", "host_available_bytes"]


def host_available_bytes() -> int | None:
    """Host memory available now (``MemAvailable`` of /proc/meminfo), else physical RAM."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return cpu_ram_bytes()


def cpu_ram_bytes() -> int | None:
    """Physical RAM, or None where the platform does not say."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def cuda_card_bytes(index: int = 0) -> int | None:
    """Total memory of CUDA device ``index`` as torch reports it, or None without a GPU."""
    from rtlopt.policy._preflight import cuda_available

    if not cuda_available():
        return None
    import torch

    return int(torch.cuda.get_device_properties(index).total_memory)
