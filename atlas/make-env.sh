#!/usr/bin/env bash
# Make the pinned metric-atlas environment: atlas/make-env.sh VENV
# A venv with oipr-bench (from this checkout, editable) and the seven metric
# packages of atlas/requirements.txt installed with --no-deps, plus the pinned
# packages their metric modules import. Never installs torch or tensorflow.
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 VENV" >&2; exit 2; fi
VENV=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
REQ="$HERE/requirements.txt"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Split the requirements file at its "[imports]" marker.
awk '/^# \[imports\]/{s=1} !/^#/ && NF {print > (s ? "'"$TMP"'/imports.txt" : "'"$TMP"'/metrics.txt")}' "$REQ"
python3 -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${PIP[@]}" install --quiet -r "$TMP/imports.txt"
"${PIP[@]}" install --quiet -c "$TMP/imports.txt" -e "$ROOT[dev]"
"${PIP[@]}" install --quiet --no-deps -r "$TMP/metrics.txt"
# The metric packages must not have pulled anything heavy in.
if "$VENV/bin/python" -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) for m in ("torch", "tensorflow")))'; then
  echo "atlas env ready: $VENV"
else
  echo "atlas env: torch or tensorflow got installed; refusing" >&2; exit 1
fi
