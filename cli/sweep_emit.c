/* sweep_emit.c - a sweep for a cluster (sweep.h). */
#include "sweep.h"

vta_status sweep_emit_write(const sweep *sw, size_t n_points, const sw_emit *e, char *script,
			    size_t size, vta_error *err)
{
	(void)sw;
	(void)n_points;
	(void)e;
	(void)script;
	(void)size;
	return vta_fail(err, VTA_E_USAGE, "not yet");
}
