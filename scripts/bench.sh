#!/usr/bin/env bash
# Prints the SPEC §10 performance table: each measurement beside its target.
#   scripts/bench.sh            all rows
#   N=50 scripts/bench.sh       more runs per whole-process measurement
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-30}
bin=$(mktemp -d)/tavo
trap 'rm -rf "$(dirname "$bin")"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin" .

rows=()
row() { rows+=("$(printf '| %s | %s | %s |' "$1" "$2" "$3")"); }

while IFS=$'\t' read -r name value unit runs; do
  case "$name" in
    "tavo version")       row "\`tavo version\` (median of $runs, whole process)" "${value} ${unit}" "≤ 5 ms" ;;
    "tavo tools list")    row "\`tavo tools list\` (median of $runs)" "${value} ${unit}" "≤ 15 ms" ;;
    "first model request") row "process start → first model request (median of $runs)" "${value} ${unit}" "≤ 8 ms" ;;
    "2-round 1-tool run") row "2-round, 1-tool-call run vs zero-latency fake (median of $runs, whole process)" "${value} ${unit}" "≤ 15 ms" ;;
    "2-round 1-tool run peak RSS") row "2-round, 1-tool-call run, peak RSS (median of $runs)" "${value} ${unit}" "≤ 20 MiB" ;;
  esac
done < <(go run ./scripts/benchcli -tavo "$bin" -n "$N")

bench=$(go test ./pkg/runner/ -run '^$' -bench 'RunnerRound|FirstRequestBytes|DeltaToStdout' -benchtime 300x)
metric() { echo "$bench" | awk -v b="$1" -v u="$2" '$1 ~ b { for (i = 1; i <= NF; i++) if ($i == u) print $(i-1) }' | head -1; }
row "runner overhead per round (in-memory provider)" "$(metric RunnerRound ms/round) ms" "< 5 ms"
row "first request bytes, tools on, dynamic loading" "$(metric FirstRequestBytes bytes) B" "≤ 5 KB"
row "SSE bytes → text.delta line on stdout" "$(metric DeltaToStdout ms/delta) ms" "< 1 ms"

store=$(go test ./pkg/store/ -run '^$' -bench 'SessionSendSetup|ReadMessagesPage' -benchtime 20x)
smetric() { echo "$store" | awk -v b="$1" -v u="$2" '$1 ~ b { for (i = 1; i <= NF; i++) if ($i == u) print $(i-1) }' | head -1; }
row "\`session send\` set-up, 10,000 stored messages" "$(smetric SessionSendSetup ms/setup) ms" "< 100 ms"
row "\`session read\` 100-message page, 10,000 stored" "$(smetric ReadMessagesPage ms/page) ms" "< 20 ms"
files=$(go test ./pkg/files/ -run '^$' -bench 'List10k' -benchtime 20x)
row "\`file ls\` page of 100 over 10,000 files" "$(echo "$files" | awk '/ext\/first\/limit=100/ { for (i = 1; i <= NF; i++) if ($i == "ms/page") print $(i-1) }' | head -1) ms" "< 50 ms"
# The store targets on both engines (SPEC §15): the same benchmarks
# (pkg/store/storetest) on the embedded SQLite store and on PostgreSQL over a
# local socket (a throwaway server from scripts/with-postgres.sh, or the one
# TAVO_TEST_POSTGRES names).
eng_sqlite=$(go test ./pkg/store/ -run '^$' -bench '^BenchmarkEngine$' -benchtime 20x)
if [[ -n "${TAVO_TEST_POSTGRES:-}" ]]; then
  eng_pg=$(go test ./pkg/store/postgres/ -run '^$' -bench '^BenchmarkEngine$' -benchtime 20x)
else
  eng_pg=$(scripts/with-postgres.sh go test ./pkg/store/postgres/ -run '^$' -bench '^BenchmarkEngine$' -benchtime 20x 2>/dev/null || true)
fi
emetric() { echo "$1" | awk -v b="$2" -v u="$3" '$1 ~ b { for (i = 1; i <= NF; i++) if ($i == u) print $(i-1) }' | head -1; }
erow() { row "$1 (SQLite │ PostgreSQL)" "$(emetric "$eng_sqlite" "$2" "$3") │ $(emetric "$eng_pg" "$2" "$3") ${3%%/*}" "$4"; }
erow "\`session send\` set-up, 10,000 stored messages" 'Engine/SessionSendSetup' ms/setup "< 100 ms"
erow "\`session read\` 100-message page, 10,000 stored" 'Engine/ReadMessagesPage' ms/page "< 20 ms"
erow "\`file ls\` page of 100 over 10,000 files" 'Engine/FileList' ms/page "< 50 ms"
erow "\`runs events --follow\`: journaled → followed in another process" 'Engine/FollowLatency' ms/event "≤ 50 ms"
erow "\`runs cancel\` → the run in another process sees it" 'Engine/CancelLatency' ms/cancel "≤ 1 s (SPEC §15)"
# Run from this shell, not under `go test`, for its peak RSS (see below).
go test -c -o "$(dirname "$bin")/resources.test" ./pkg/resources/
res=$("$(dirname "$bin")/resources.test" -test.run '^$' -test.bench 'WorkspacePages' -test.benchtime 4000x)
rmetric() { echo "$res" | awk -v u="$1" '{ for (i = 1; i <= NF; i++) if ($i == u) print $(i-1) }' | head -1; }
row "\`tavo_read\` page of a 100 MiB workspace file" "$(rmetric ms/page) ms" "< 5 ms"
row "reading a 100 MiB workspace file page by page, peak RSS" "$(rmetric MiB-peak-rss) MiB" "< 50 MiB"
# Sub-agents (issue 17): a root that starts 1 or 4 async children against the
# zero-latency fake (medians of 200 trees), and the peak RSS of 16 children run
# four at a time (a process of its own).
agents=$(go test ./pkg/agents/ -run '^$' -bench 'AsyncChildren$/^children=' -benchtime 200x)
amedian() { echo "$agents" | awk -v b="children=$1-" '$1 ~ b { for (i = 1; i <= NF; i++) if ($i == "p50-ms") print $(i-1) }' | head -1; }
a1=$(amedian 1) a4=$(amedian 4)
row "4 async children vs 1, zero-latency fake (tree medians)" "$a1 → $a4 ms ($(awk -v a="$a1" -v b="$a4" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "?" }')×)" "≤ 1.5×"
# The test binaries with a peak-RSS row run from this shell, not under `go
# test`: Linux carries a process's peak RSS across fork and exec, so a child
# of the go command starts with the go command's (about 35 MiB).
go test -c -o "$(dirname "$bin")/agents.test" ./pkg/agents/
rss16=$("$(dirname "$bin")/agents.test" -test.run '^$' -test.bench 'TreeRSS/children=16' -test.benchtime 20x | awk '{ for (i = 1; i <= NF; i++) if ($i == "peak-RSS-MiB") print $(i-1) }' | head -1)
row "16 sub-agents, four at a time: peak RSS of the process" "$rss16 MiB" "report"

# Main-content extraction on ../shared/extract-corpus (issue 21): a row per mode, and the per-page
# scores in $EXTRACT_TSV so two runs can be diffed. The corpus lives beside the clone, not in it.
corpus=${EXTRACT_CORPUS:-../shared/extract-corpus}
if [[ ! -f "$corpus/cases.json" ]]; then
  echo "bench.sh: the extraction corpus is missing: no $corpus/cases.json (set EXTRACT_CORPUS=DIR)" >&2
  exit 1
fi
tsv=${EXTRACT_TSV:-${TMPDIR:-/tmp}/tavo-extract-corpus.tsv}
while IFS=$'\t' read -r mode f1 p r ms; do
  case "$mode" in
    auto) target="F1 ≥ 0.94, ≥ main; ms/page ≤ go-readability's" ;;
    main) target="F1 ≥ 0.883 (go-readability)" ;;
    readability) mode="go-readability + html-to-markdown"; target="—" ;;
    *) target="—" ;;
  esac
  row "extract-corpus, 990 pages, \`$mode\`: F1 (precision, recall), per page" "$f1 ($p, $r), $ms ms" "$target"
done < <(go run ./scripts/extract-corpus -corpus "$corpus" -rows -tsv "$tsv")
echo "bench.sh: per-page extraction scores in $tsv" >&2

if [[ -x scripts/bench-worker.sh ]]; then
  # Worker throughput on both engines (SPEC §15): the same 200 due loop firings worked by one
  # `tavo worker --once`, on the embedded store and on PostgreSQL (a throwaway server).
  w_sqlite=$(env -u TAVO_STORE_URL scripts/bench-worker.sh --rate 2>/dev/null || echo "?")
  w_pg=$(scripts/with-postgres.sh bash -c 'TAVO_STORE_URL=$TAVO_TEST_POSTGRES scripts/bench-worker.sh --rate' 2>/dev/null || echo "?")
  row "\`tavo worker --once\`: 200 due loop firings, --concurrency 8 (SQLite │ PostgreSQL)" "$w_sqlite │ $w_pg firings/s" "≥ 50 firings/s"
  while IFS= read -r line; do rows+=("$line"); done < <(env -u TAVO_STORE_URL scripts/bench-worker.sh --rows 2>/dev/null | grep -v 'due loop firings')
fi

if [[ -x scripts/bench-fetch.sh ]]; then
  while IFS= read -r line; do rows+=("$line"); done < <(scripts/bench-fetch.sh --rows)
fi

echo "| measurement | measured | SPEC §10 target |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3-)"
