#!/usr/bin/env bash
# Measures the fetch engine against SPEC §10, and beside pandoc on the same pages.
#   scripts/bench-fetch.sh          SPEC rows, then per-page throughput and memory vs pandoc
#   scripts/bench-fetch.sh --rows   only the SPEC §10 table rows (scripts/bench.sh uses this)
# Pages: the real-world go-readability test pages in the module cache (the biggest ones, and
# all of them joined into 25 MiB) and a generated article dense in markup. Nothing is downloaded;
# pandoc runs with --sandbox so it cannot fetch what pages embed.
set -euo pipefail
cd "$(dirname "$0")/.."
rows_only=false
[[ "${1:-}" == "--rows" ]] && rows_only=true

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fb="$tmp/fetch-bench"
go build -o "$fb" ./scripts/fetch-bench

real="$tmp/real-25MiB.html" dense="$tmp/dense-25MiB.html" dense1="$tmp/dense-1MiB.html" real5="$tmp/real-5MiB.html"
have_corpus=true
"$fb" page -kind concat -o "$real" 2>/dev/null || have_corpus=false
"$fb" page -kind synthetic -o "$dense"
"$fb" page -kind synthetic -size 1048576 -o "$dense1"

# field FILE KEY: the value of a "key<TAB>value" line.
field() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1"; }
# mbps FILE: MB/s column of fetch-bench convert.
mbps() { awk -F'\t' '{ print $5 }' "$1"; }

rows=()
row() { rows+=("$(printf '| %s | %s | %s |' "$1" "$2" "$3")"); }

if $have_corpus; then
  GOMAXPROCS=1 "$fb" convert -extract full "$real" >"$tmp/c.real"
  row "HTML→Markdown on one core, 25 MiB of real-world pages (--extract full)" "$(mbps "$tmp/c.real") MB/s" "≥ 20 MB/s"
  GOMAXPROCS=1 "$fb" convert -extract auto "$real" >"$tmp/c.real.auto"
  row "HTML→Markdown on one core, same page, --extract auto" "$(mbps "$tmp/c.real.auto") MB/s" "≥ 20 MB/s"
fi
GOMAXPROCS=1 "$fb" convert -extract full "$dense1" >"$tmp/c.dense"
row "HTML→Markdown on one core, 1 MiB generated article dense in markup" "$(mbps "$tmp/c.dense") MB/s" "≥ 20 MB/s"
if $have_corpus; then
  "$fb" rss -extract auto "$real" >"$tmp/r.real"
  row "25 MiB real-world page fetched gzipped, --extract auto: peak RSS" "$(field "$tmp/r.real" peak_rss_mb) MB" "≤ 300 MB"
fi
"$fb" rss -extract auto "$dense" >"$tmp/r.dense"
note="converted"
[[ -n "$(field "$tmp/r.dense" error)" ]] && note="refused: its Markdown passes 10 MiB"
row "25 MiB generated page dense in markup, --extract auto ($note): peak RSS" "$(field "$tmp/r.dense" peak_rss_mb) MB" "≤ 300 MB"
"$fb" bomb >"$tmp/bomb"
row "1 GiB gzip bomb stopped at 40 MiB" "$(field "$tmp/bomb" seconds) s" "< 1 s"

if $rows_only; then
  printf '%s\n' "${rows[@]}"
  exit 0
fi

echo "## SPEC §10 fetch targets"
echo
echo "| measurement | measured | SPEC §10 target |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
echo

echo "## go test -bench (pkg/fetch, one core)"
echo
go test ./pkg/fetch/ -run '^$' -bench 'Convert/full/(real-|synthetic-1MiB)|GzipBomb' -benchtime 3x -cpu 1 |
  awk '/^Benchmark/ { print "    " $0 }'
echo

echo "## Beside pandoc (same pages, one core, --extract full vs pandoc -f html -t gfm)"
echo
pages=("$dense1")
if $have_corpus; then
  corpus=$(go env GOMODCACHE)/codeberg.org/readeck/go-readability/v2@v2.1.3/test-pages
  for p in yahoo-2 noscript-img-2 wikipedia-2 guardian-1; do pages+=("$corpus/$p/source.html"); done
  head -c 5242880 "$real" >"$real5"
  pages+=("$real5")
fi
if ! command -v pandoc >/dev/null; then
  echo "pandoc is not installed (apt-get install pandoc); tavo only:"
fi
echo "| page | bytes | tavo MB/s | tavo peak RSS | pandoc MB/s | pandoc peak RSS | tavo/pandoc speed |"
echo "|---|---|---|---|---|---|---|"
for p in "${pages[@]}"; do
  name=$(basename "$(dirname "$p")")
  [[ "$p" == "$tmp"/* ]] && name=$(basename "$p" .html)
  bytes=$(stat -c %s "$p")
  /usr/bin/time -f '%M' -o "$tmp/time" env GOMAXPROCS=1 "$fb" convert -n 1 -extract full "$p" >/dev/null
  t_rss=$(tail -1 "$tmp/time")
  t_mbps=$(GOMAXPROCS=1 "$fb" convert -extract full "$p" | awk -F'\t' '{ print $5 }')
  if command -v pandoc >/dev/null; then
    /usr/bin/time -f '%e %M' -o "$tmp/time" pandoc --sandbox -f html -t gfm -o /dev/null "$p" 2>/dev/null
    read -r p_s p_rss <"$tmp/time"
    p_mbps=$(awk -v b="$bytes" -v s="$p_s" 'BEGIN { printf "%.2f", b / (s > 0 ? s : 0.01) / 1e6 }')
    ratio=$(awk -v a="$t_mbps" -v b="$p_mbps" 'BEGIN { printf "%.0f×", a / (b > 0 ? b : 0.01) }')
    echo "| $name | $bytes | $t_mbps | $((t_rss / 1024)) MB | $p_mbps | $((p_rss / 1024)) MB | $ratio |"
  else
    echo "| $name | $bytes | $t_mbps | $((t_rss / 1024)) MB | – | – | – |"
  fi
done
echo
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3-)"
