#!/usr/bin/env bash
# Set up a machine for rtlopt: Debian EDA tools, then the Python package with its extras.
#   bash scripts/setup.sh          # the tool and the CPU model
#   bash scripts/setup.sh --dev    # plus test and lint tools
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dev=0
[ "${1:-}" = "--dev" ] && dev=1

sudo_cmd=""
if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi

need_apt=0
for t in iverilog vvp yosys sta; do command -v "$t" >/dev/null 2>&1 || need_apt=1; done
if [ "$need_apt" = 1 ]; then
  echo "[setup] installing iverilog, yosys, opensta (Debian packages)"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq iverilog yosys opensta >/dev/null
fi

py="${PYTHON:-python3}"
# torch first, pinned: an unpinned torch (or a package asking for a newer one) pulls CUDA wheels.
if ! "$py" -c "import torch" >/dev/null 2>&1; then
  echo "[setup] installing torch 2.13.0 (CPU)"
  "$py" -m pip install -q "torch==2.13.0"
fi
extras="pyverilog,pyosys,train,smollm"
[ "$dev" = 1 ] && extras="$extras,dev"
echo "[setup] installing rtlopt[$extras]"
"$py" -m pip install -q -e "$here[$extras]"
echo "[setup] tools: $(iverilog -V 2>&1 | head -1 | cut -c1-40); $(yosys -V); OpenSTA $(sta -version)"
