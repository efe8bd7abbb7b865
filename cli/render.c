/* `rout render <run folder> [--at TIME] [--format png|svg] [--out FILE] [--width PX]`:
 * draws a moment of a finished run again from its trace.bin and run.json
 * (docs/run-folder.md). */
#include "rout/picture.h"
#include "args.h"

#include <stdio.h>
#include <string.h>

int rout_render(int argc, char **argv);

int rout_render(int argc, char **argv)
{
	if (argc < 1 || argv[0][0] == '-') {
		fprintf(stderr, "rout render: which run folder? (rout render <run folder> [--at TIME] [--format png|svg] [--out FILE] [--width PX])\n");
		return 2;
	}
	rt_render_def rd = rt_render_def_default();
	rd.run_folder = argv[0];
	const char *format = NULL;
	long width = 1600;
	for (int i = 1; i < argc; ++i) {
		if (arg_string(argc, argv, &i, "--at", &rd.at)) continue;
		if (arg_string(argc, argv, &i, "--format", &format)) continue;
		if (arg_string(argc, argv, &i, "--out", &rd.out_path)) continue;
		if (arg_long(argc, argv, &i, "--width", &width, 16, 16384)) continue;
		if (arg_error) return 2;
		fprintf(stderr, "rout render: unknown option '%s'\n", argv[i]);
		return 2;
	}
	rd.width_px = (int)width;
	if (format) {
		if (strcmp(format, "png") == 0) rd.format = RT_IMAGE_PNG;
		else if (strcmp(format, "svg") == 0) rd.format = RT_IMAGE_SVG;
		else {
			fprintf(stderr, "rout render: --format %s: expected png or svg\n", format);
			return 2;
		}
	}
	char written[1200];
	double t = 0.0;
	rt_error err;
	rt_status s = rt_render_run(&rd, written, sizeof written, &t, &err);
	if (s != RT_OK) {
		if (err.file[0]) fprintf(stderr, "rout render: %s%s%s%s: %s\n", err.file, err.field[0] ? " [" : "", err.field, err.field[0] ? "]" : "", err.message);
		else fprintf(stderr, "rout render: %s\n", err.message);
		return s == RT_ERR_INVALID || s == RT_ERR_PARSE ? 2 : 1;
	}
	const long whole = (long)(t + 0.5);
	printf("%s: the run at %ld:%02ld:%02ld simulated\n", written, whole / 3600, (whole / 60) % 60, whole % 60);
	return 0;
}
