#!/usr/bin/env bash
# The main job on the bundled example: copy examples/priority_encoder into a fresh git repository,
# then run `rtlopt optimize` on its module and show the branch and the report.
# The PDKs come from the bundled packages that scripts/setup.sh installs (no RTLOPT_PDK_PATH).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PYTHON:-python3}"
# `rtlopt` where pip put the command on PATH; else the same program through the interpreter.
if command -v rtlopt >/dev/null 2>&1; then
  rtlopt() { command rtlopt "$@"; }
else
  rtlopt() { "$py" -m rtlopt "$@"; }
fi
demo="$(mktemp -d "${TMPDIR:-/tmp}/rtlopt-demo.XXXXXX")"
cp -r "$here/examples/priority_encoder/." "$demo/"
cd "$demo"
git init -q -b main . && git add -A
git -c user.name=demo -c user.email=demo@example.com commit -q -m "example repository"
export GIT_AUTHOR_NAME=rtlopt GIT_AUTHOR_EMAIL=rtlopt@localhost GIT_COMMITTER_NAME=rtlopt GIT_COMMITTER_EMAIL=rtlopt@localhost

echo "== rtlopt inspect"
rtlopt inspect rtl/prio_enc.v
echo
echo "== rtlopt optimize with the CPU model (SmolLM2-135M): one real test-time-training step"
# 32 new tokens: the tiny model writes no complete module at 96 either (both answers cut off),
# and each new token is a forward pass of the model on the CPU
set +e
rtlopt optimize rtl/prio_enc.v --pdk nangate45 --steps 1 --parents 1 --rollouts 2 \
  --max-new-tokens 32 --no-branch
status=$?
set -e
case "$status" in
  0) echo "(the tiny model found a better design)" ;;
  1) echo "(exit 1: as expected, the tiny model proposes nothing better)" ;;
  *) echo "demo: rtlopt optimize failed with exit $status (see the error above)" >&2
     exit "$status" ;;
esac
echo
echo "== rtlopt optimize over hand-written alternatives (scripted policy)"
rtlopt optimize rtl/prio_enc.v --pdk nangate45 --policy scripted --candidates alternatives \
  --steps 2 --parents 1 --rollouts 3
echo
echo "demo repository: $demo"
git -C "$demo" branch --list 'rtlopt/*'
