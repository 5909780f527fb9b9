/*
 * model_vcd_check.c - checks a `--vcd` waveform of the model against the run's own log
 * (`--log`) and report (`-o`):
 *   - the header: a 1 ps timescale, the clock period in the comment, every scope and
 *     signal of the model (docs/cli.md) declared once, with well-formed $var lines;
 *   - the value section: time stamps only move forward, the model's changes sit on whole
 *     cycles (a token queue's may sit at a cycle's middle: its pops), values are binary (or
 *     x) of their declared width, strings beside the codes;
 *   - each module's insn signal holds instruction i exactly over [wait, retire) of i's log
 *     line (and z elsewhere), its state is wait_token over [wait, start), busy or wait_port
 *     over [start, end), wait_room over [end, retire);
 *   - LOAD, COMPUTE and STORE spend busy_cycles busy, stall_dep_cycles in wait_token and
 *     stall_mem_cycles in wait_port and wait_room, FETCH its fetch:port stalls in wait_port;
 *   - queue depths stay in [0, depth], live bytes in [0, capacity] and peak at peak_bytes,
 *     the DRAM port is owned for dram.busy_cycles.
 * RTL signals merged into the file (other scopes) are read for their time stamps only.
 *
 * usage: model_vcd_check W.vcd LOG.txt REPORT.json [--run N] [--dep-depth D] [--insn-depth I]
 *   --run N: the N-th run of the log and, in a `run` report, the N-th layer (default 1)
 * Exit status 0 when every check holds, 1 otherwise (with the first failure printed).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODULES 4
#define NONE UINT64_MAX
#define NOVAL (-1) /* z: no instruction */

static const char *const MODULE[MODULES] = {"fetch", "load", "compute", "store"};
static const char *const STATE[5] = {"idle", "busy", "wait_token", "wait_port", "wait_room"};
static const char *const OWNER[5] = {"none", "fetch", "load", "compute", "store"};

/* The model's signals by their path under vta. */
enum { S_STATE, S_INSN = S_STATE + MODULES, S_TOKENS = S_INSN + MODULES,
       S_IQ = S_TOKENS + 4, S_LIVE = S_IQ + 3, S_OWNER = S_LIVE + 5, S_PORT_INSN,
       S_WRITE_INSN, S_N };
static const char *const PATH[S_N] = {
	"fetch.state", "load.state", "compute.state", "store.state",
	"fetch.insn", "load.insn", "compute.insn", "store.insn",
	"tokens.l2g", "tokens.g2l", "tokens.g2s", "tokens.s2g",
	"insn_queues.load", "insn_queues.compute", "insn_queues.store",
	"sram_live.uop", "sram_live.inp", "sram_live.wgt", "sram_live.acc", "sram_live.out",
	"dram_port.owner", "dram_port.insn", "dram_port.write_insn"};
static const char *const SRAM[5] = {"uop", "inp", "wgt", "acc", "out"};

/* A value from cycle t on. */
typedef struct point {
	uint64_t t;
	int64_t v;
} point;

typedef struct signal {
	char id[32], name_id[32]; /* the code and the code of its string alias, if any */
	int width;
	point *p;
	size_t n, cap;
} signal;

typedef struct insn_line {
	uint64_t wait, start, end, retire;
	int module;
	int retired;
} insn_line;

static signal sig[S_N];
static int64_t raw_min[S_N], raw_max[S_N]; /* every value written, half cycles included */
static uint64_t run_end; /* the run's cycles: nothing changes at or after them */

static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("model_vcd_check: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(1);
}

static void add_point(signal *s, uint64_t t, int64_t v)
{
	if (s->n && s->p[s->n - 1].t == t) {
		s->p[s->n - 1].v = v;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		if (!(s->p = realloc(s->p, s->cap * sizeof(point))))
			fail("out of memory");
	}
	s->p[s->n++] = (point){t, v};
}

/* The index of s's first change after cycle t. */
static size_t after(const signal *s, uint64_t t)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->p[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The value of s over [t, t + 1). */
static int64_t at(const signal *s, uint64_t t)
{
	size_t k = after(s, t);
	return k ? s->p[k - 1].v : NOVAL;
}

/* Cycles s spends at value v over [0, end). */
static uint64_t time_at(const signal *s, int64_t v, uint64_t end)
{
	uint64_t sum = 0;
	for (size_t k = 0; k < s->n && s->p[k].t < end; k++) {
		uint64_t to = k + 1 < s->n && s->p[k + 1].t < end ? s->p[k + 1].t : end;
		if (s->p[k].v == v)
			sum += to - s->p[k].t;
	}
	return sum;
}

static int64_t max_of(const signal *s)
{
	int64_t m = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->p[k].v > m)
			m = s->p[k].v;
	return m;
}

static int64_t min_of(const signal *s)
{
	int64_t m = INT64_MAX;
	for (size_t k = 0; k < s->n; k++)
		if (s->p[k].v != NOVAL && s->p[k].v < m)
			m = s->p[k].v;
	return m;
}

/* Read the VCD: the declarations, then the changes of the model's signals. */
static uint64_t read_vcd(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail("cannot open %s", path);
	char line[4096], scope[8][64];
	int depth = 0, defs = 1, timescale = 0;
	uint64_t period = 0, t = 0, t_ps = 0, stamps = 0;
	int have_t = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (defs) {
			char w1[64], w2[64], w3[64], w4[64], w5[64], w6[64];
			const char *c;
			if (!strncmp(line, "$timescale", 10))
				timescale = !strcmp(line, "$timescale 1ps $end");
			if ((c = strstr(line, "one cycle of the run is ")))
				period = strtoull(c + 24, NULL, 10);
			if (sscanf(line, "$scope module %63s $end", w1) == 1) {
				if (depth == 8)
					fail("scopes nest too deep");
				snprintf(scope[depth++], sizeof(scope[0]), "%s", w1);
			} else if (!strncmp(line, "$upscope", 8)) {
				if (!depth--)
					fail("$upscope without $scope");
			} else if (!strncmp(line, "$var", 4)) {
				/* $var TYPE WIDTH ID NAME [RANGE] $end */
				int n = sscanf(line, "$var %63s %63s %63s %63s %63s %63s", w1,
					       w2, w3, w4, w5, w6);
				if (n < 5 || strcmp(n == 5 ? w5 : w6, "$end") || atoi(w2) < 1)
					fail("malformed declaration '%s'", line);
				if (depth != 2 || strcmp(scope[0], "vta"))
					continue; /* the RTL units' */
				char name[160];
				snprintf(name, sizeof(name), "%s.%s", scope[1], w4);
				const int is_str = strlen(name) > 5 &&
						   !strcmp(name + strlen(name) - 5, "_name");
				if (is_str)
					name[strlen(name) - 5] = 0;
				int k = 0;
				while (k < S_N && strcmp(PATH[k], name))
					k++;
				if (k == S_N)
					fail("unknown signal vta.%s.%s", scope[1], w4);
				if (is_str) {
					if (strcmp(w1, "string") || sig[k].name_id[0])
						fail("string alias of %s", name);
					snprintf(sig[k].name_id, sizeof(sig[k].name_id), "%s", w3);
				} else {
					if (sig[k].id[0])
						fail("%s declared twice", name);
					snprintf(sig[k].id, sizeof(sig[k].id), "%s", w3);
					sig[k].width = atoi(w2);
				}
			} else if (!strncmp(line, "$enddefinitions", 15)) {
				defs = 0;
				if (depth)
					fail("unclosed scope");
				if (!timescale)
					fail("the timescale is not 1 ps");
				if (!period)
					fail("no clock period in the header's comment");
				for (int k = 0; k < S_N; k++)
					if (!sig[k].id[0])
						fail("vta.%s is not declared", PATH[k]);
				for (int m = 0; m < MODULES; m++)
					if (!sig[S_STATE + m].name_id[0])
						fail("vta.%s.state_name is not declared",
						     MODULE[m]);
				if (!sig[S_OWNER].name_id[0])
					fail("vta.dram_port.owner_name is not declared");
			}
			continue;
		}
		if (line[0] == '#') {
			uint64_t ps = strtoull(line + 1, NULL, 10);
			if (have_t && ps <= t_ps)
				fail("time goes back or stands at #%llu", (unsigned long long)ps);
			have_t = 1;
			t_ps = ps;
			t = ps / period;
			stamps++;
			continue;
		}
		if (line[0] == '$' || !line[0])
			continue;
		if (!have_t)
			fail("a value before the first time stamp");
		char val[256], id[64];
		if (line[0] == 'b' || line[0] == 's') {
			if (sscanf(line + 1, "%255s %63s", val, id) != 2)
				fail("malformed change '%s'", line);
		} else if (line[0] == 'r') {
			continue;
		} else {
			val[0] = line[0];
			val[1] = 0;
			snprintf(id, sizeof(id), "%s", line + 1);
		}
		for (int k = 0; k < S_N; k++) {
			if (line[0] == 's' && !strcmp(id, sig[k].name_id)) {
				/* the name matches the code set at the same time */
				const char *const *names = k == S_OWNER ? OWNER : STATE;
				int64_t code = at(&sig[k], t);
				if (code < 0 || code > 4 || strcmp(val, names[code]))
					fail("%s: name %s beside code %lld at cycle %llu",
					     PATH[k], val, (long long)code,
					     (unsigned long long)t);
			}
			if (line[0] != 'b' || strcmp(id, sig[k].id))
				continue;
			const int token = k >= S_TOKENS && k < S_IQ;
			if (t_ps % period && !(token && t_ps % period == period / 2))
				fail("%s changes off a whole cycle, at %llu ps", PATH[k],
				     (unsigned long long)t_ps);
			if ((int)strlen(val) > sig[k].width)
				fail("%s: value %s wider than %d bits", PATH[k], val, sig[k].width);
			int64_t v = 0;
			if (!strcmp(val, "z")) {
				v = NOVAL;
			} else {
				for (const char *c = val; *c; c++) {
					if (*c != '0' && *c != '1')
						fail("%s: value %s is not binary", PATH[k], val);
					v = 2 * v + (*c - '0');
				}
			}
			add_point(&sig[k], t, v);
			if (v < raw_min[k])
				raw_min[k] = v;
			if (v > raw_max[k])
				raw_max[k] = v;
		}
	}
	fclose(f);
	if (defs)
		fail("no $enddefinitions");
	if (stamps < 3)
		fail("only %llu time stamps", (unsigned long long)stamps);
	for (int k = 0; k < S_N; k++)
		if (!sig[k].n || sig[k].p[0].t != 0)
			fail("%s has no value at time 0", PATH[k]);
	return period;
}

static uint64_t cycle_of(const char *s)
{
	return !strcmp(s, "-") ? NONE : strtoull(s, NULL, 10);
}

/* The instruction lines of run `run` of the log; *n receives their number. */
static insn_line *read_log(const char *path, int run, size_t *n, uint64_t *fetch_port)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail("cannot open %s", path);
	char line[65536];
	int cur = 0;
	size_t cap = 256;
	insn_line *v = malloc(cap * sizeof(*v));
	*n = 0;
	*fetch_port = 0;
	while (v && fgets(line, sizeof(line), f)) {
		int r;
		if (sscanf(line, "# run %d:", &r) == 1) {
			cur = r;
			continue;
		}
		if (cur != run || line[0] == '#' || line[0] == '\n')
			continue;
		char idx[32], mod[32], stage[32], c[5][32], unit[32], stalls[512];
		if (sscanf(line, "%31s %31s %31s %31s %31s %31s %31s %31s %31s %511s", idx, mod,
			   stage, c[0], c[1], c[2], c[3], c[4], unit, stalls) != 10)
			fail("malformed log line '%s'", line);
		if ((size_t)strtoull(idx, NULL, 10) != *n)
			fail("log line %zu has index %s", *n, idx);
		if (*n == cap && !(v = realloc(v, (cap *= 2) * sizeof(*v))))
			break;
		insn_line *l = &v[(*n)++];
		l->module = 0;
		for (int m = 1; m < MODULES; m++)
			if (!strcmp(mod, MODULE[m]))
				l->module = m;
		if (!l->module)
			fail("log line %zu: module %s", *n - 1, mod);
		l->retired = !strcmp(stage, "retired");
		l->wait = cycle_of(c[1]);
		l->start = cycle_of(c[2]);
		l->end = cycle_of(c[3]);
		l->retire = cycle_of(c[4]);
		const char *p = strstr(stalls, "fetch:port=");
		if (p)
			*fetch_port += strtoull(p + 11, NULL, 10);
	}
	fclose(f);
	if (!v)
		fail("out of memory");
	if (!*n)
		fail("no run %d in %s", run, path);
	return v;
}

static uint64_t jint(json_t *obj, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	json_t *o = obj;
	for (char *key = strtok(buf, "."); key; key = strtok(NULL, "."))
		o = json_object_get(o, key);
	if (!json_is_integer(o))
		fail("the report has no %s", path);
	return (uint64_t)json_integer_value(o);
}

/* Over [from, to) s holds a value of ok_mask (bit v for value v), or with exact, exactly v
 * = the lowest bit of ok_mask, and not just before nor at `to`. */
static void holds(const signal *s, int64_t v, int ok_mask, uint64_t from, uint64_t to,
		  int exact, const char *what, size_t insn)
{
	for (uint64_t t = from; t < to;) {
		const int64_t got = at(s, t);
		if (exact ? got != v : got < 0 || got > 4 || !(ok_mask & (1 << got)))
			fail("%s of insn %zu: %lld at cycle %llu", what, insn, (long long)got,
			     (unsigned long long)t);
		const size_t k = after(s, t);
		t = k < s->n ? s->p[k].t : to;
	}
	if (exact && from < to && from > 0 && at(s, from - 1) == v)
		fail("%s of insn %zu: already %lld before cycle %llu", what, insn, (long long)v,
		     (unsigned long long)from);
	if (exact && from < to && to < run_end && at(s, to) == v)
		fail("%s of insn %zu: still %lld at cycle %llu", what, insn, (long long)v,
		     (unsigned long long)to);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		fail("usage: model_vcd_check W.vcd LOG.txt REPORT.json [--run N] [--dep-depth D] "
		     "[--insn-depth I]");
	int run = 1;
	int64_t dep_depth = 8, insn_depth = 512;
	for (int a = 4; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "--run"))
			run = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "--dep-depth"))
			dep_depth = atoll(argv[a + 1]);
		else if (!strcmp(argv[a], "--insn-depth"))
			insn_depth = atoll(argv[a + 1]);
		else
			fail("unknown option %s", argv[a]);
	}
	const uint64_t period = read_vcd(argv[1]);
	size_t n;
	uint64_t fetch_port;
	insn_line *log = read_log(argv[2], run, &n, &fetch_port);
	json_error_t jerr;
	json_t *root = json_load_file(argv[3], 0, &jerr);
	if (!root)
		fail("%s: %s", argv[3], jerr.text);
	json_t *rep = json_object_get(root, "layers");
	rep = rep ? json_array_get(rep, (size_t)run - 1) : json_object_get(root, "total");
	if (!rep)
		fail("the report has no layer %d", run);
	const uint64_t cycles = jint(rep, "cycles");
	run_end = cycles;
	for (int k = 0; k < S_N; k++)
		if (sig[k].n && sig[k].p[sig[k].n - 1].t >= cycles)
			fail("%s changes at cycle %llu, at or after the end of the run", PATH[k],
			     (unsigned long long)sig[k].p[sig[k].n - 1].t);

	/* each instruction on its module's signals */
	for (size_t i = 0; i < n; i++) {
		const insn_line *l = &log[i];
		if (!l->retired)
			fail("insn %zu did not retire: a completed run is expected", i);
		const signal *insn = &sig[S_INSN + l->module], *st = &sig[S_STATE + l->module];
		holds(insn, (int64_t)i, 0, l->wait, l->retire, 1, "insn", i);
		holds(st, 0, 1 << 2, l->wait, l->start, 0, "state waiting for tokens", i);
		holds(st, 0, 1 << 1 | 1 << 3, l->start, l->end, 0, "state executing", i);
		holds(st, 0, 1 << 4, l->end, l->retire, 0, "state pushing", i);
	}
	/* the modules' time against their statistics */
	for (int m = 1; m < MODULES; m++) {
		const signal *st = &sig[S_STATE + m];
		char key[128];
		snprintf(key, sizeof(key), "modules.%s.busy_cycles", MODULE[m]);
		uint64_t busy = jint(rep, key);
		snprintf(key, sizeof(key), "modules.%s.stall_dep_cycles", MODULE[m]);
		uint64_t dep = jint(rep, key);
		snprintf(key, sizeof(key), "modules.%s.stall_mem_cycles", MODULE[m]);
		uint64_t mem = jint(rep, key);
		if (time_at(st, 1, cycles) != busy || time_at(st, 2, cycles) != dep ||
		    time_at(st, 3, cycles) + time_at(st, 4, cycles) != mem)
			fail("%s: busy %llu, wait_token %llu, wait_port+room %llu; the report says "
			     "%llu, %llu, %llu",
			     MODULE[m], (unsigned long long)time_at(st, 1, cycles),
			     (unsigned long long)time_at(st, 2, cycles),
			     (unsigned long long)(time_at(st, 3, cycles) + time_at(st, 4, cycles)),
			     (unsigned long long)busy, (unsigned long long)dep,
			     (unsigned long long)mem);
	}
	if (time_at(&sig[S_STATE], 3, cycles) != fetch_port)
		fail("fetch waits %llu cycles for the port, its log says %llu",
		     (unsigned long long)time_at(&sig[S_STATE], 3, cycles),
		     (unsigned long long)fetch_port);
	/* depths, live bytes, the port */
	for (int k = S_TOKENS; k < S_LIVE; k++) {
		const int64_t cap = k < S_IQ ? dep_depth : insn_depth;
		if (raw_min[k] < 0 || raw_max[k] > cap)
			fail("%s goes from %lld to %lld, outside [0, %lld]", PATH[k],
			     (long long)raw_min[k], (long long)raw_max[k], (long long)cap);
	}
	for (int m = 0; m < 5; m++) {
		char key[128];
		snprintf(key, sizeof(key), "sram.%s.peak_bytes", SRAM[m]);
		const uint64_t peak = jint(rep, key);
		snprintf(key, sizeof(key), "sram.%s.capacity_bytes", SRAM[m]);
		const uint64_t capacity = jint(rep, key);
		const signal *s = &sig[S_LIVE + m];
		if (min_of(s) < 0 || (uint64_t)max_of(s) != peak || peak > capacity)
			fail("%s peaks at %lld, the report says %llu (capacity %llu)",
			     PATH[S_LIVE + m], (long long)max_of(s), (unsigned long long)peak,
			     (unsigned long long)capacity);
	}
	/* the read channel's owners, and the write channel's STORE bursts */
	uint64_t owned = cycles - time_at(&sig[S_WRITE_INSN], NOVAL, cycles);
	for (int o = 1; o <= 4; o++)
		owned += time_at(&sig[S_OWNER], o, cycles);
	if (time_at(&sig[S_OWNER], 4, cycles))
		fail("STORE owns the read channel");
	if (owned != jint(rep, "dram.busy_cycles"))
		fail("the DRAM channels are busy %llu cycles, the report says %llu",
		     (unsigned long long)owned, (unsigned long long)jint(rep, "dram.busy_cycles"));
	if (max_of(&sig[S_OWNER]) > 4)
		fail("owner code %lld", (long long)max_of(&sig[S_OWNER]));
	printf("vcd ok: %zu instructions, %llu cycles of %llu ps\n", n,
	       (unsigned long long)cycles, (unsigned long long)period);
	json_decref(root);
	free(log);
	return 0;
}
