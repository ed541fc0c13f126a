#!/usr/bin/env bash
# Measures `tavo worker` against SPEC §10 (≥ 50 loop firings a second on one machine against
# the zero-latency fake) and reports an idle worker's CPU and RSS.
#   scripts/bench-worker.sh          the rows, with a line of detail on stderr
#   scripts/bench-worker.sh --rows   only the table rows (scripts/bench.sh uses this)
#   scripts/bench-worker.sh --rate   only the firings/s (scripts/bench.sh, both engines)
#   N=400 C=8 scripts/bench-worker.sh   firings and --concurrency
#   TAVO_STORE_URL=postgres://… scripts/bench-worker.sh   on a PostgreSQL store (fleet mode);
#     scripts/bench.sh runs it on a throwaway server from scripts/with-postgres.sh
# Each firing is a whole run (store, session lease, one model request, journal) in its own
# session: N loops made due together, worked by one `tavo worker --once`. Loops fire at least
# 10 s apart, so the script waits 10 s for them to come due; nothing is timed but the worker.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200}
C=${C:-8}
IDLE=${IDLE:-10}

tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
bin=$tmp/tavo
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin" .
go build -o "$tmp/fakeprovider" ./pkg/providers/fake/cmd/fakeprovider

export TAVO_DATA_DIR=$tmp/data TAVO_CONFIG=$tmp/config.toml OPENAI_API_KEY=sk-bench
export TAVO_PROVIDER_FIXTURES=${TAVO_PROVIDER_FIXTURES:-$(cd .. && pwd)/shared/provider-fixtures}
{ printf '['; for ((i = 0; i < N; i++)); do ((i)) && printf ','; printf '{"text":"ok"}'; done; printf ']'; } > "$tmp/replies.json"
"$tmp/fakeprovider" -script "$tmp/replies.json" -url-file "$tmp/url" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -s "$tmp/url" ]] && break; sleep 0.05; done
export OPENAI_BASE_URL=$(cat "$tmp/url")

for ((i = 0; i < N; i++)); do
  sid=$("$bin" session create)
  "$bin" loops create -q --session "$sid" --every 10s --max-turns 1 "ping" >/dev/null
done
sleep 10.5

start=$(date +%s.%N)
"$bin" worker --once -q --concurrency "$C"
end=$(date +%s.%N)
done_runs=$("$bin" runs list --limit 200 -o json --jq '[.runs[] | select(.status == "completed")] | length')
rate=$(awk -v n="$N" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", n / (e - s) }')
secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
if [[ "${1:-}" == --rate ]]; then
  engine=SQLite
  [[ -n "${TAVO_STORE_URL:-}" ]] && engine=PostgreSQL
  echo "bench-worker: $N firings in $secs s with --concurrency $C on $engine ($done_runs of the last 200 runs completed)" >&2
  echo "$rate"
  exit 0
fi

# An idle foreground worker: CPU over IDLE seconds after it settled, and its RSS.
"$bin" worker -q >/dev/null 2>&1 &
wpid=$!
pids+=("$wpid")
sleep 2
ticks() { awk '{ print $14 + $15 }' "/proc/$wpid/stat"; }
t0=$(ticks)
sleep "$IDLE"
t1=$(ticks)
hz=$(getconf CLK_TCK)
cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$IDLE" 'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')
rss=$(awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$wpid/status")
kill -TERM "$wpid"
wait "$wpid" || true

echo "bench-worker: $N firings in $secs s with --concurrency $C ($done_runs of the last 200 runs completed)" >&2
printf '| %s | %s | %s |\n' "\`tavo worker --once\`: $N due loop firings vs zero-latency fake, --concurrency $C" "$rate firings/s" "≥ 50 firings/s"
printf '| %s | %s | %s |\n' "idle \`tavo worker\`: CPU over ${IDLE} s, RSS" "$cpu % CPU, $rss MiB" "~0 CPU"
