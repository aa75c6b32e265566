#!/usr/bin/env bash
# Mutation testing: inject known bugs into a temporary copy of this tree and expect the tests
# that cover them to fail. See scripts/mutate.py --help.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "${PYTHON:-python3}" "$here/scripts/mutate.py" "$@"
