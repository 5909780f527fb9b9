/* cmd_run.c - `vtasim run`: build every layer's stream, simulate, check, report. */
#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_usage_error("'vtasim run' is not available in this build yet: the layer "
			       "emitters are not part of it");
}
