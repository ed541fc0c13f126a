#!/usr/bin/env bash
# Regenerates completions/ and man/ from the command tree.
#   scripts/gen-docs.sh          rewrite them
#   scripts/gen-docs.sh --check  fail when the committed ones are stale (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./scripts/gendocs "$tmp"
if [[ "${1:-}" == "--check" ]]; then
  if ! diff -r completions "$tmp/completions" >/dev/null || ! diff -r man "$tmp/man" >/dev/null; then
    echo "completions/ or man/ are stale: run scripts/gen-docs.sh and commit the result" >&2
    diff -r completions "$tmp/completions" | head -20 >&2 || true
    diff -r man "$tmp/man" | head -20 >&2 || true
    exit 1
  fi
  echo "completions/ and man/ are current"
  exit 0
fi
rm -rf completions man
cp -r "$tmp/completions" "$tmp/man" .
echo "regenerated completions/ and man/"
