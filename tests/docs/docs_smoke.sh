#!/bin/sh
# docs_smoke.sh VTASIM SRC [DOC.md...]: run every command the docs show, so a newcomer who
# copies one from README.md or docs/*.md gets what the page promises. The rules (README.md
# "Commands in the docs" says them for writers):
#
#   - Commands are the lines of code blocks (fenced, or indented 4 spaces) that start with
#     `vtasim` or a program under `build/` (`build/vtasim`, `./build/vtasim`,
#     `build/bench/...`), or that pipe into vtasim (`printf '...' | vtasim debug ...`), after
#     an optional "$ " prompt; a line ending in "\" continues on the next. In a block with
#     "$ " prompts only those lines are commands (the rest is their output). Other lines
#     (output, `make ...`, `sh ...`) are not run: `make demo` and `make test` are what CI
#     runs anyway.
#   - Each page runs in a fresh copy of the repository (without build folders), in page
#     order, so a command may use a file an earlier one on the same page wrote. `vtasim`
#     and `build/vtasim` are the binary under test, `build/bench/` the benchmark programs
#     built beside it; stdin is empty.
#   - A command must exit 0. An HTML comment on the line before a block changes that for the
#     whole block: <!-- docs-smoke: skip --> runs none of it (synopses, commands that
#     rewrite the repository or need Slurm), <!-- docs-smoke: exit N --> expects status N.
#   - Slow commands are shortened: a sweep runs only one point (--shard 0/1000 --no-plots
#     added, unless it is --list, --merge or --emit); every command has 60 seconds.
#
# A failure names the page and line of the command, its exit status and its last lines of
# output. DOCS_SMOKE_VERBOSE=1 prints every command with its time and status.
set -u
vtasim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
shift 2
if [ $# -eq 0 ]; then
	set -- "$src/README.md" "$src"/docs/*.md
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/bin"
ln -s "$vtasim" "$work/bin/vtasim"
PATH=$work/bin:$PATH
export PATH

# One record per command: LINE<tab>EXPECTED-STATUS<tab>COMMAND (status "skip" to count it).
extract() {
	awk '
	function emit(line, cmd) {
		printf "%d\t%s\t%s\n", line, (mode == "" ? 0 : mode), cmd
	}
	BEGIN { fence = 0; inblock = 0; mode = ""; pending = ""; cont = 0; blank = 1 }
	# a marker ends the block before it and covers the next one
	/^[ \t]*<!-- docs-smoke: skip -->/ { pending = "skip"; inblock = 0; next }
	/^[ \t]*<!-- docs-smoke: exit [0-9]+ -->/ {
		pending = $0; sub(/.*exit /, "", pending); sub(/ .*/, "", pending); inblock = 0; next
	}
	/^[ \t]*```/ {
		if (fence) { fence = 0; mode = "" } else { fence = 1; mode = pending; pending = "" }
		prompted = 0; next
	}
	{
		code = fence
		if (!fence && /^(    |\t)/ && (inblock || blank)) {
			if (!inblock) { mode = pending; pending = ""; prompted = 0 }
			inblock = 1; code = 1
		} else if (!fence && !/^[ \t]*$/) {
			inblock = 0; mode = ""; pending = ""  # prose: a marker covers the next block only
		}
		blank = /^[ \t]*$/
		if (!code) { cont = 0; next }
		line = $0; sub(/^[ \t]+/, "", line)
		if (cont) {
			cmd = cmd " " line
			if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); next }
			cont = 0; emit(start, cmd); next
		}
		# in a transcript (a block with "$ " prompts) the other lines are output
		if (sub(/^\$ /, "", line)) prompted = 1
		else if (prompted) next
		if (line !~ /^(\.\/)?build\// && line !~ /^vtasim( |$)/ &&
		    line !~ /\| *(\.\/)?(build\/)?vtasim /)
			next
		cmd = line; start = NR
		if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
		emit(start, cmd)
	}' "$1"
}

# The slow ones, shortened (see the top of this file).
shorten() {
	c=${1%% #*} # the options go before a trailing comment
	case " $c " in
	*" sweep "*" --list "* | *" sweep "*" --merge "* | *" sweep "*" --emit "*) printf '%s' "$c" ;;
	*" sweep "*) printf '%s --shard 0/1000 --no-plots' "$c" ;;
	*) printf '%s' "$c" ;;
	esac
}

fail=0 ran=0 skipped=0
for doc in "$@"; do
	name=${doc#"$src"/}
	extract "$doc" >"$work/cmds"
	grep -qv '	skip	' "$work/cmds" || { skipped=$((skipped + $(wc -l <"$work/cmds"))); continue; }
	copy=$work/repo
	rm -rf "$copy"
	mkdir -p "$copy/build"
	# the repository's files, not its build folders or history
	(cd "$src" && find . -mindepth 1 -maxdepth 1 ! -name '.git' ! -name 'build*' \
		-exec cp -R {} "$copy/" \;)
	ln -s "$vtasim" "$copy/build/vtasim"
	[ -d "$(dirname "$vtasim")/bench" ] && ln -s "$(dirname "$vtasim")/bench" "$copy/build/bench"
	while IFS='	' read -r line want cmd; do
		if [ "$want" = skip ]; then
			skipped=$((skipped + 1))
			continue
		fi
		# a trailing "# comment" is the shell's to drop; the prompt is gone already
		run=$(shorten "$cmd")
		ran=$((ran + 1))
		t0=$(date +%s)
		(cd "$copy" && timeout 60 sh -c "$run" </dev/null >"$work/out" 2>&1)
		got=$?
		[ -n "${DOCS_SMOKE_VERBOSE:-}" ] &&
			printf '%s:%s: %s s, status %s: %s\n' "$name" "$line" "$(($(date +%s) - t0))" "$got" "$run"
		if [ "$got" -ne "$want" ]; then
			fail=$((fail + 1))
			if [ "$got" -eq 124 ]; then
				why="took longer than 60 seconds"
			else
				why="exited with status $got, the page expects $want"
			fi
			printf '%s:%s: %s: %s\n' "$name" "$line" "$cmd" "$why"
			[ "$run" != "$cmd" ] && printf '  (run as: %s)\n' "$run"
			tail -n 15 "$work/out" | sed 's/^/  | /'
			printf '  Fix the command or the code; a block the test must not run gets '
			printf '<!-- docs-smoke: skip --> (or <!-- docs-smoke: exit N -->) on the line '
			printf 'before it (tests/docs/docs_smoke.sh).\n\n'
		fi
	done <"$work/cmds"
done
printf 'docs smoke test: %d commands run, %d failed, %d in blocks marked skip\n' "$ran" "$fail" \
	"$skipped"
[ "$fail" -eq 0 ]
