/*
 * tiling_pin.c - a CONV2D plan pinned in part (tiling.h, vta_conv_pin): its fields by name,
 * read from text for the workload's `plan:` key and `vtasim sweep`, and described for errors
 * and reports. The chooser honours it (vta_conv_plan_choose_pinned).
 */
#include "tiling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_yaml.h"

enum { PIN_U32, PIN_SLOTS, PIN_ORDER, PIN_CONSTS };

/* One row per field: its name, what it holds and where. */
static const struct pin_field {
	const char *name;
	int kind;
	size_t offset;
} FIELDS[] = {
	{"rows", PIN_U32, offsetof(vta_conv_pin, th)},
	{"chunk_blocks", PIN_U32, offsetof(vta_conv_pin, ncb)},
	{"group_blocks", PIN_U32, offsetof(vta_conv_pin, nob)},
	{"load_blocks", PIN_U32, offsetof(vta_conv_pin, nobw)},
	{"order", PIN_ORDER, offsetof(vta_conv_pin, order)},
	{"inp_slots", PIN_SLOTS, offsetof(vta_conv_pin, s_inp)},
	{"wgt_slots", PIN_SLOTS, offsetof(vta_conv_pin, s_wgt)},
	{"acc_slots", PIN_SLOTS, offsetof(vta_conv_pin, s_acc)},
	{"constants", PIN_CONSTS, offsetof(vta_conv_pin, consts)},
};
#define N_FIELDS (sizeof(FIELDS) / sizeof(FIELDS[0]))

const char *const *vta_conv_pin_fields(void)
{
	static const char *names[N_FIELDS + 1];
	for (size_t i = 0; i < N_FIELDS; i++)
		names[i] = FIELDS[i].name;
	return names;
}

bool vta_conv_pin_any(const vta_conv_pin *pin)
{
	static const vta_conv_pin none = {0};
	return pin && memcmp(pin, &none, sizeof(none)) != 0;
}

vta_status vta_conv_pin_set(vta_conv_pin *pin, const char *field, const char *text,
			    vta_error *err)
{
	const struct pin_field *f = NULL;
	for (size_t i = 0; i < N_FIELDS; i++)
		if (!strcmp(FIELDS[i].name, field))
			f = &FIELDS[i];
	if (!f) {
		char list[200];
		return vta_fail(err, VTA_E_PARSE, "unknown plan field '%s' (expected one of: %s)",
				field, vta_yaml_key_list(vta_conv_pin_fields(), list, sizeof(list)));
	}
	char *p = (char *)pin + f->offset;
	const bool is_free = text && !strcmp(text, "free");
	char what[40];
	snprintf(what, sizeof(what), "plan.%s", f->name);
	int64_t v;
	vta_status st;
	switch (f->kind) {
	case PIN_U32:
	case PIN_SLOTS:
		if (is_free) {
			v = 0;
		} else if ((st = vta_text_int(text, what, 1, f->kind == PIN_SLOTS ? 2 : 65535, &v,
					      err))) {
			return st;
		}
		if (f->kind == PIN_U32)
			*(uint32_t *)p = (uint32_t)v;
		else
			*(unsigned *)p = (unsigned)v;
		return VTA_OK;
	case PIN_ORDER:
		if (is_free)
			*(vta_pin_order *)p = VTA_PIN_FREE;
		else if (text && !strcmp(text, "rows"))
			*(vta_pin_order *)p = VTA_PIN_ROWS_OUTER;
		else if (text && !strcmp(text, "groups"))
			*(vta_pin_order *)p = VTA_PIN_GROUPS_OUTER;
		else
			return vta_fail(err, VTA_E_PARSE, "%s: expected rows, groups or free, got '%s'",
					what, text ? text : "(not a scalar)");
		return VTA_OK;
	default:
		if (is_free)
			*(vta_pin_consts *)p = VTA_PIN_CONSTS_FREE;
		else if (text && !strcmp(text, "all"))
			*(vta_pin_consts *)p = VTA_PIN_CONSTS_ALL;
		else if (text && !strcmp(text, "group"))
			*(vta_pin_consts *)p = VTA_PIN_CONSTS_GROUP;
		else
			return vta_fail(err, VTA_E_PARSE, "%s: expected all, group or free, got '%s'",
					what, text ? text : "(not a scalar)");
		return VTA_OK;
	}
}

void vta_conv_pin_describe(const vta_conv_pin *pin, char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < N_FIELDS; i++) {
		const char *p = (const char *)pin + FIELDS[i].offset;
		const char *sep = len ? ", " : "";
		switch (FIELDS[i].kind) {
		case PIN_U32:
			if (*(const uint32_t *)p)
				vta_appendf(out, size, &len, "%s%s %u", sep, FIELDS[i].name,
					    *(const uint32_t *)p);
			break;
		case PIN_SLOTS:
			if (*(const unsigned *)p)
				vta_appendf(out, size, &len, "%s%s %u", sep, FIELDS[i].name,
					    *(const unsigned *)p);
			break;
		case PIN_ORDER:
			if (*(const vta_pin_order *)p)
				vta_appendf(out, size, &len, "%s%s %s", sep, FIELDS[i].name,
					    *(const vta_pin_order *)p == VTA_PIN_ROWS_OUTER ? "rows"
											: "groups");
			break;
		default:
			if (*(const vta_pin_consts *)p)
				vta_appendf(out, size, &len, "%s%s %s", sep, FIELDS[i].name,
					    *(const vta_pin_consts *)p == VTA_PIN_CONSTS_ALL ? "all"
											     : "group");
			break;
		}
	}
	if (!len)
		snprintf(out, size, "nothing");
}
