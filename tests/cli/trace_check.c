/*
 * trace_check.c - checks a `--trace` file the way a viewer would read it, against the Trace
 * Event Format: it parses as JSON, holds Chrome trace events of the kinds vtasim writes
 * with the fields they need, says its timestamps are cycles, names the four module tracks
 * of every process, nests the slices of each track properly, places processes (layers)
 * one after another, and
 *   - timestamps never go back within a track (a process's thread for slices, flow ends
 *     and instants; a process's counter, by name);
 *   - counter values are non-negative numbers;
 *   - flows: every start ("s") has exactly one finish ("f") of the same cat, name and id,
 *     not before it; both say "bp": "e" and bind: the start lies strictly inside a slice
 *     of its thread, the finish inside [ts, ts + dur) of one.
 *
 * The host's process (a model's host ops between the layers, pid HOST_PID) holds only its
 * name and instants, in time order, and is not counted among the processes.
 *
 * usage: trace_check TRACE.json [--processes N] [--slice NAME]... [--instant PREFIX]
 *                    [--counter NAME]... [--flows MIN] [--host N]
 * Exit status 0 when every check holds, 1 otherwise (with the first failure printed).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PIDS 256
#define TRACKS 4
#define HOST_PID 1000000 /* cli/trace_chrome.c */

typedef struct span {
	double ts, te;
} span;

/* One end of a flow. */
typedef struct flow {
	const char *cat, *name;
	json_int_t id;
	double ts;
	int pid, tid, start;
} flow;

/* A counter track: its process, name and last timestamp. */
typedef struct counter_track {
	int pid;
	const char *name;
	double last;
} counter_track;

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
	double stack[64];
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

static double num_of(json_t *ev, const char *key, int *ok)
{
	json_t *v = json_object_get(ev, key);
	if (!json_is_number(v)) {
		*ok = 0;
		return 0;
	}
	return json_number_value(v);
}

static int by_flow(const void *a, const void *b)
{
	const flow *x = a, *y = b;
	int c = strcmp(x->cat, y->cat);
	if (!c)
		c = strcmp(x->name, y->name);
	if (!c && x->id != y->id)
		c = x->id < y->id ? -1 : 1;
	if (!c)
		c = y->start - x->start; /* the start first */
	return c;
}

/* Whether a slice of track t (sorted by nests()) holds ts: strictly inside (a flow's
 * start) or in [ts, te). The slices starting before ts, from the latest back. */
static int binds(const track *t, double ts, int strictly)
{
	size_t lo = 0, hi = t->n; /* the first slice starting after ts (or at it, strictly) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strictly ? t->s[mid].ts < ts : t->s[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo--)
		if (ts < t->s[lo].te)
			return 1;
	return 0;
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

	static track tracks[MAX_PIDS][TRACKS];
	static int named[MAX_PIDS][TRACKS];
	static double first[MAX_PIDS], last[MAX_PIDS], track_last[MAX_PIDS][TRACKS];
	int processes = 0, max_pid = 0, host_instants = 0;
	double host_last = -1;
	size_t slices = 0, counters = 0;
	for (int p = 0; p < MAX_PIDS; p++) {
		first[p] = 1e300, last[p] = -1;
		for (int t = 0; t < TRACKS; t++)
			track_last[p][t] = -1;
	}
	const size_t n_events = json_array_size(events);
	flow *flows = calloc(n_events + 1, sizeof(*flows));
	counter_track *ctracks = calloc(n_events + 1, sizeof(*ctracks));
	size_t n_flows = 0, n_ctracks = 0;
	if (!flows || !ctracks)
		return fail("out of memory", NULL);
	size_t i;
	json_t *ev;
	json_array_foreach(events, i, ev) {
		const char *name = json_string_value(json_object_get(ev, "name"));
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		int ok = 1;
		int64_t pid = int_of(ev, "pid", &ok), tid = int_of(ev, "tid", &ok);
		if (ok && pid == HOST_PID) {
			if (!name || !ph || tid != 0 || (strcmp(ph, "M") && strcmp(ph, "i")))
				return fail("a host event is not a name or an instant",
					    json_dumps(ev, 0));
			if (!strcmp(ph, "M"))
				continue;
			double ts = num_of(ev, "ts", &ok);
			if (!ok || ts < host_last)
				return fail("host instants go back in time", json_dumps(ev, 0));
			host_last = ts;
			host_instants++;
			continue;
		}
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
		double ts = num_of(ev, "ts", &ok);
		if (!ok || ts < 0)
			return fail("an event has no cycle timestamp", json_dumps(ev, 0));
		if (strcmp(ph, "C")) { /* one track's events come in time order */
			if (ts < track_last[pid][tid])
				return fail("a timestamp goes back on its track",
					    json_dumps(ev, 0));
			track_last[pid][tid] = ts;
		}
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
				if (!json_is_number(v) || json_number_value(v) < 0)
					return fail("a counter value is negative or not a number",
						    json_dumps(ev, 0));
			size_t c = 0;
			while (c < n_ctracks &&
			       (ctracks[c].pid != pid || strcmp(ctracks[c].name, name)))
				c++;
			if (c == n_ctracks)
				ctracks[n_ctracks++] = (counter_track){(int)pid, name, ts};
			if (ts < ctracks[c].last)
				return fail("a counter's timestamp goes back", json_dumps(ev, 0));
			ctracks[c].last = ts;
			counters++;
		} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
			const char *cat = json_string_value(json_object_get(ev, "cat"));
			const char *bp = json_string_value(json_object_get(ev, "bp"));
			json_int_t id = int_of(ev, "id", &ok);
			if (!cat || !ok)
				return fail("a flow event lacks cat or id", json_dumps(ev, 0));
			if (!bp || strcmp(bp, "e"))
				return fail("a flow event does not bind to its enclosing slice",
					    json_dumps(ev, 0));
			flows[n_flows++] =
				(flow){cat, name, id, ts, (int)pid, (int)tid, ph[0] == 's'};
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
		}
		/* processes (layers) one after another */
		if (p > 1 && last[p - 1] >= 0 && first[p] < last[p - 1])
			return fail("a process starts before the previous one ends", NULL);
	}

	/* flows: pairs of one start and one finish, bound to slices of their threads */
	qsort(flows, n_flows, sizeof(*flows), by_flow);
	for (size_t k = 0; k < n_flows; k += 2) {
		const flow *a = &flows[k], *b = k + 1 < n_flows ? &flows[k + 1] : NULL;
		char what[256];
		snprintf(what, sizeof(what), "%s %s id %lld", a->cat, a->name, (long long)a->id);
		if (!a->start || !b || b->start || strcmp(a->cat, b->cat) ||
		    strcmp(a->name, b->name) || a->id != b->id)
			return fail("a flow start lacks its finish, or has two", what);
		if (b->ts < a->ts)
			return fail("a flow finishes before it starts", what);
		if (!binds(&tracks[a->pid][a->tid], a->ts, 1))
			return fail("a flow start is not inside a slice of its thread", what);
		if (!binds(&tracks[b->pid][b->tid], b->ts, 0))
			return fail("a flow finish is not inside a slice of its thread", what);
	}
	for (int a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "--processes") && a + 1 < argc) {
			if (processes != atoi(argv[++a])) {
				char got[32];
				snprintf(got, sizeof(got), "%d", processes);
				return fail("wrong number of processes", got);
			}
		} else if (!strcmp(argv[a], "--host") && a + 1 < argc) {
			if (host_instants != atoi(argv[++a])) {
				char got[32];
				snprintf(got, sizeof(got), "%d", host_instants);
				return fail("wrong number of host instants", got);
			}
		} else if (!strcmp(argv[a], "--flows") && a + 1 < argc) {
			if (n_flows / 2 < (size_t)atoi(argv[++a])) {
				char got[32];
				snprintf(got, sizeof(got), "%zu", n_flows / 2);
				return fail("too few flows", got);
			}
		} else if (!strcmp(argv[a], "--counter") && a + 1 < argc) {
			const char *want = argv[++a];
			size_t c = 0;
			while (c < n_ctracks && strcmp(ctracks[c].name, want))
				c++;
			if (c == n_ctracks)
				return fail("no counter named", want);
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
	printf("trace ok: %zu events, %d processes, %zu slices, %zu counter samples, %zu flows\n",
	       json_array_size(events), processes, slices, counters, n_flows / 2);
	for (int p = 0; p < MAX_PIDS; p++)
		for (int t = 0; t < TRACKS; t++)
			free(tracks[p][t].s);
	free(flows);
	free(ctracks);
	json_decref(root);
	return 0;
}
