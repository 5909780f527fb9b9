/*
 * trace_check.c - checks a `--trace` file the way a viewer would read it: it parses as
 * JSON, holds Chrome trace events of the kinds vtasim writes with the fields they need,
 * says its timestamps are cycles, names the four module tracks of every process, nests
 * the slices of each track properly, and places processes (layers) one after another.
 *
 * usage: trace_check TRACE.json [--processes N] [--slice NAME]... [--instant PREFIX]
 * Exit status 0 when every check holds, 1 otherwise (with the first failure printed).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PIDS 256
#define TRACKS 4

typedef struct span {
	int64_t ts, te;
} span;

typedef struct track {
	span *s;
	size_t n, cap;
} track;

static int fail(const char *what, const char *detail)
{
	printf("trace_check: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const span *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->te > y->te ? -1 : x->te < y->te; /* the enclosing slice first */
}

static int nests(track *t)
{
	if (!t->n)
		return 1;
	qsort(t->s, t->n, sizeof(span), by_start);
	int64_t stack[64];
	int depth = 0;
	for (size_t i = 0; i < t->n; i++) {
		while (depth && stack[depth - 1] <= t->s[i].ts)
			depth--;
		if (depth && t->s[i].te > stack[depth - 1])
			return 0;
		if (depth == 64)
			return 0;
		stack[depth++] = t->s[i].te;
	}
	return 1;
}

static int64_t int_of(json_t *ev, const char *key, int *ok)
{
	json_t *v = json_object_get(ev, key);
	if (!json_is_integer(v)) {
		*ok = 0;
		return 0;
	}
	return json_integer_value(v);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return fail("usage: trace_check TRACE.json [--processes N] [--slice NAME]... "
			    "[--instant PREFIX]", NULL);
	json_error_t jerr;
	json_t *root = json_load_file(argv[1], 0, &jerr);
	if (!root) {
		char where[256];
		snprintf(where, sizeof(where), "%s:%d:%d: %s", argv[1], jerr.line, jerr.column,
			 jerr.text);
		return fail("not JSON", where);
	}
	json_t *events = json_object_get(root, "traceEvents");
	json_t *unit = json_object_get(json_object_get(root, "otherData"), "time_unit");
	if (!json_is_array(events))
		return fail("no traceEvents array", NULL);
	if (!json_is_string(unit) || !strstr(json_string_value(unit), "cycles"))
		return fail("otherData.time_unit does not say the timestamps are cycles", NULL);

	track tracks[MAX_PIDS][TRACKS];
	int named[MAX_PIDS][TRACKS];
	int64_t first[MAX_PIDS], last[MAX_PIDS];
	memset(tracks, 0, sizeof(tracks));
	memset(named, 0, sizeof(named));
	int processes = 0, max_pid = 0;
	size_t slices = 0, counters = 0;
	for (int p = 0; p < MAX_PIDS; p++)
		first[p] = INT64_MAX, last[p] = -1;
	size_t i;
	json_t *ev;
	json_array_foreach(events, i, ev) {
		const char *name = json_string_value(json_object_get(ev, "name"));
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		int ok = 1;
		int64_t pid = int_of(ev, "pid", &ok), tid = int_of(ev, "tid", &ok);
		if (!name || !ph || !ok || pid < 1 || pid >= MAX_PIDS || tid < 0 || tid >= TRACKS)
			return fail("an event lacks name, ph, pid or tid", json_dumps(ev, 0));
		if (pid > max_pid)
			max_pid = (int)pid;
		if (!strcmp(ph, "M")) {
			json_t *args = json_object_get(ev, "args");
			if (!strcmp(name, "process_name"))
				processes++;
			if (!strcmp(name, "thread_name")) {
				static const char *const want[TRACKS] = {"fetch", "load", "compute",
									 "store"};
				const char *n = json_string_value(json_object_get(args, "name"));
				if (!n || strcmp(n, want[tid]))
					return fail("a track is misnamed", json_dumps(ev, 0));
				named[pid][tid] = 1;
			}
			continue;
		}
		int64_t ts = int_of(ev, "ts", &ok);
		if (!ok || ts < 0)
			return fail("an event has no cycle timestamp", json_dumps(ev, 0));
		if (!strcmp(ph, "X")) {
			int64_t dur = int_of(ev, "dur", &ok);
			if (!ok || dur < 0)
				return fail("a slice has no duration", json_dumps(ev, 0));
			track *t = &tracks[pid][tid];
			if (t->n == t->cap) {
				t->cap = t->cap ? 2 * t->cap : 64;
				t->s = realloc(t->s, t->cap * sizeof(span));
				if (!t->s)
					return fail("out of memory", NULL);
			}
			t->s[t->n++] = (span){ts, ts + dur};
			if (ts < first[pid])
				first[pid] = ts;
			if (ts + dur > last[pid])
				last[pid] = ts + dur;
			slices++;
		} else if (!strcmp(ph, "C")) {
			const char *key;
			json_t *v;
			json_t *args = json_object_get(ev, "args");
			if (!json_is_object(args) || !json_object_size(args))
				return fail("a counter has no values", json_dumps(ev, 0));
			json_object_foreach(args, key, v)
				if (!json_is_integer(v) || json_integer_value(v) < 0)
					return fail("a counter value is not a count",
						    json_dumps(ev, 0));
			counters++;
		} else if (strcmp(ph, "i")) {
			return fail("an event of an unexpected kind", json_dumps(ev, 0));
		}
	}
	for (int p = 1; p <= max_pid; p++) {
		for (int t = 0; t < TRACKS; t++) {
			if (!named[p][t])
				return fail("a process lacks a module track name", NULL);
			if (!nests(&tracks[p][t]))
				return fail("slices of a track overlap without nesting", NULL);
			free(tracks[p][t].s);
		}
		/* processes (layers) one after another */
		if (p > 1 && last[p - 1] >= 0 && first[p] < last[p - 1])
			return fail("a process starts before the previous one ends", NULL);
	}

	for (int a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "--processes") && a + 1 < argc) {
			if (processes != atoi(argv[++a])) {
				char got[32];
				snprintf(got, sizeof(got), "%d", processes);
				return fail("wrong number of processes", got);
			}
		} else if ((!strcmp(argv[a], "--slice") || !strcmp(argv[a], "--instant")) &&
			   a + 1 < argc) {
			const int instant = argv[a][2] == 'i';
			const char *want = argv[++a];
			int found = 0;
			json_array_foreach(events, i, ev) {
				const char *name = json_string_value(json_object_get(ev, "name"));
				const char *ph = json_string_value(json_object_get(ev, "ph"));
				if (instant ? !strcmp(ph, "i") && !strncmp(name, want, strlen(want))
					    : !strcmp(ph, "X") && !strcmp(name, want))
					found = 1;
			}
			if (!found)
				return fail(instant ? "no instant event starting with"
						    : "no slice named",
					    want);
		} else {
			return fail("unknown option", argv[a]);
		}
	}
	printf("trace ok: %zu events, %d processes, %zu slices, %zu counter samples\n",
	       json_array_size(events), processes, slices, counters);
	json_decref(root);
	return 0;
}
