#!/usr/bin/env bash
# Make a pinned metric-atlas environment: atlas/make-env.sh [--env main|modern] VENV
# A venv with oipr-bench (from this checkout, editable) and the metric packages
# of atlas/requirements.txt (env "main", the default) or
# atlas/requirements-modern.txt (env "modern") installed with --no-deps, plus
# the pinned packages their metric modules import. Never installs torch or
# tensorflow. The venv records its env name in VENV/oipr-atlas-env, which
# `oipr-bench atlas` reads to know which rows it can run (docs/atlas.md).
set -euo pipefail
ENV_NAME=main
if [ $# -ge 1 ] && [ "$1" = "--env" ]; then
  if [ $# -lt 2 ]; then echo "usage: $0 [--env main|modern] VENV" >&2; exit 2; fi
  ENV_NAME=$2; shift 2
fi
if [ $# -ne 1 ]; then echo "usage: $0 [--env main|modern] VENV" >&2; exit 2; fi
VENV=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
case "$ENV_NAME" in
  main) REQ="$HERE/requirements.txt" ;;
  modern) REQ="$HERE/requirements-modern.txt" ;;
  *) echo "$0: unknown env '$ENV_NAME' (main or modern)" >&2; exit 2 ;;
esac
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
  echo "$ENV_NAME" > "$VENV/oipr-atlas-env"
  echo "atlas env ($ENV_NAME) ready: $VENV"
else
  echo "atlas env: torch or tensorflow got installed; refusing" >&2; exit 1
fi
