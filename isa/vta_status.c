/* vta_status.c - status strings, exit codes and the error record helper. */
#include "vta_status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vta_text.h"

const char *vta_status_str(vta_status status)
{
	switch (status) {
	case VTA_OK: return "ok";
	case VTA_E_USAGE: return "bad usage";
	case VTA_E_IO: return "i/o error";
	case VTA_E_CONFIG: return "invalid config";
	case VTA_E_PARSE: return "parse error";
	case VTA_E_ENCODE: return "field does not fit";
	case VTA_E_STREAM: return "malformed stream";
	case VTA_E_DATA: return "malformed data";
	case VTA_E_NOMEM: return "out of memory";
	case VTA_E_DEADLOCK: return "deadlock";
	case VTA_E_OOB: return "out of bounds";
	case VTA_E_FLAGS: return "illegal dependency flags";
	case VTA_E_HAZARD: return "ACC write hazard";
	case VTA_E_UNSUPPORTED: return "unsupported operation";
	case VTA_E_NO_FINISH: return "no FINISH";
	case VTA_E_RACE: return "data race";
	case VTA_E_UNINIT: return "read of an unwritten row";
	case VTA_E_WARNING: return "warning (strict)";
	case VTA_E_MISMATCH: return "mismatch against golden";
	case VTA_E_INTERNAL: return "internal error";
	}
	return "unknown status";
}

int vta_status_exit_code(vta_status status)
{
	if (status == VTA_OK)
		return 0;
	/* the simulation problems and VTA_E_INTERNAL (a bug, not bad input) follow
	 * VTA_E_DEADLOCK in the enum */
	return status >= VTA_E_DEADLOCK ? 1 : 2;
}

vta_status vta_fail(vta_error *err, vta_status status, const char *fmt, ...)
{
	if (!err)
		return status;
	err->status = status;
	va_list ap;
	va_start(ap, fmt);
	char raw[VTA_ERROR_DETAIL_MAX];
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* whatever the arguments quoted, the detail stays one line of visible text */
	vta_escape(err->detail, sizeof(err->detail), raw, strlen(raw));
	return status;
}

void vta_appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	if (*len >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

void vta_error_clear(vta_error *err)
{
	if (!err)
		return;
	err->status = VTA_OK;
	err->detail[0] = '\0';
}
