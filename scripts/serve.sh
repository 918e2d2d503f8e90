#!/usr/bin/env bash
# Serves www/ on 127.0.0.1:$PORT (default 8000) and prints the URL.
set -euo pipefail
cd "$(dirname "$0")/../www"
PORT="${PORT:-8000}"
HOST="${HOST:-127.0.0.1}"
echo
echo "  DP Explorer is served at: http://$HOST:$PORT/"
echo "  (Ctrl-C stops the server)"
echo
exec python3 -m http.server "$PORT" --bind "$HOST"
