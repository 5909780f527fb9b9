/*
 * test_rtl_params.c - the Verilog's constants against the ISA's one declaration of them:
 * vta_alu_lane.v's opcodes and op port against VTA_ALU_OPS (isa/vta_alu_ops.h), and
 * vta_lut_decoder.v's bit width and stride ports against the LUT limits (isa/vta_limits.h).
 * The Verilog is read as text, so a row added to the table without its RTL case fails here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_alu_ops.h"
#include "vta_limits.h"

static char *read_text(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "rtl_models/%s", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *text = calloc(1, 1 << 20);
	assert_non_null(text);
	size_t n = fread(text, 1, (1 << 20) - 1, f);
	assert_true(n > 0 && n < (1 << 20) - 1);
	fclose(f);
	return text;
}

/* The width of input port `name` ("input wire [H:0] name,"), 0 if there is none. */
static unsigned port_bits(const char *text, const char *name)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[256];
		if (len >= sizeof(buf))
			continue;
		memcpy(buf, line, len);
		buf[len] = '\0';
		unsigned hi;
		char port[64];
		if (sscanf(buf, " input wire [%u:0] %63[a-z_0-9]", &hi, port) == 2 &&
		    !strcmp(port, name))
			return hi + 1;
	}
	return 0;
}

/* How many times `what` occurs in text. */
static unsigned occurrences(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static void test_alu_lane_opcodes(void **state)
{
	(void)state;
	char *v = read_text("vta_alu_lane.v");
	assert_int_equal(port_bits(v, "op"), VTA_ALU_OPCODE_BITS);
	char want[64];
#define OPCODE_IN_VERILOG(name, code, ...)                                           \
	snprintf(want, sizeof(want), "OP_%s = %d'd%d", #name, VTA_ALU_OPCODE_BITS, code); \
	if (!strstr(v, want))                                                         \
		fail_msg("vta_alu_lane.v has no '%s'", want);                         \
	snprintf(want, sizeof(want), "OP_%s:", #name);                               \
	if (occurrences(v, want) != 1)                                                \
		fail_msg("vta_alu_lane.v has no case '%s'", want);
	VTA_ALU_OPS(OPCODE_IN_VERILOG)
#undef OPCODE_IN_VERILOG
	/* no opcode the table lacks: one localparam and one case per row, and the reserved
	 * code is the default's pass-through */
	snprintf(want, sizeof(want), " = %d'd", VTA_ALU_OPCODE_BITS);
	assert_int_equal(occurrences(v, want), VTA_ALU_OP_COUNT);
	assert_non_null(strstr(v, "default:  alu = a;"));
	free(v);
}

static void test_lut_decoder_ports(void **state)
{
	(void)state;
	char *v = read_text("vta_lut_decoder.v");
	/* bitwidth holds 1..VTA_LUT_MAX_BITWIDTH, every code of the field */
	const unsigned bw = port_bits(v, "bitwidth");
	assert_int_equal((1u << bw) - 1, VTA_LUT_MAX_BITWIDTH);
	/* stride holds 1..VTA_LUT_MAX_STRIDE, in the fewest bits */
	const unsigned stride = port_bits(v, "stride");
	assert_true(stride > 0 && VTA_LUT_MAX_STRIDE < (1u << stride) &&
		    VTA_LUT_MAX_STRIDE >= (1u << (stride - 1)));
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu_lane_opcodes),
		cmocka_unit_test(test_lut_decoder_ports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
