#!/bin/sh
# corpus_fresh.sh RACE_CORPUS: the generator, run into an empty folder, writes exactly
# tests/race/corpus (run from the source tree).
set -eu
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-corpus-XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
"$1" "$TMP" > /dev/null
if ! diff -r tests/race/corpus "$TMP"; then
	echo "corpus_fresh.sh: tests/race/corpus is stale: rerun race_corpus (docs/regression.md)" >&2
	exit 1
fi
