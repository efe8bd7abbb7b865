/* `rout scene NAME` and `rout demo`: run a shared scene and write its outputs. */
#include "rout/rout.h"
#include "args.h"

#include <stdio.h>

int rout_scene(int argc, char **argv, const char *name, const char *default_out);

int rout_scene(int argc, char **argv, const char *name, const char *default_out)
{
	(void)argc; (void)argv; (void)name; (void)default_out;
	fprintf(stderr, "rout scene: not yet\n");
	return 1;
}
