/* libFuzzer harness for the YAML scenario reader (rt_scenario_load_string), without its
 * map: the time goes into the YAML tree, the strict schema, the references between
 * sections, --set paths and the history measures. Each input is read twice: as it is,
 * and with one allocation refused (chosen from the input), which must end in
 * RT_ERR_NOMEM with nothing held. A scenario that loads must describe itself sensibly.
 * Seeds: fuzz/corpus/scenario/ (the real scenarios, the test scenario, the broken ones). */
#include "fuzz.h"
#include "rout/scenario.h"

static void check_loaded(const rt_scenario *sc)
{
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	FUZZ_CHECK(info.side_count >= 2 && info.side_count <= RT_SCENARIO_MAX_SIDES, "%d sides", info.side_count);
	FUZZ_CHECK(info.corps_count >= 1 && info.unit_count >= info.corps_count, "%d corps, %d units", info.corps_count, info.unit_count);
	FUZZ_CHECK(info.duration_s > 0.0 && info.scale >= 1.0 && info.dt_s > 0.0, "duration %g scale %g dt %g", info.duration_s,
		   info.scale, info.dt_s);
	FUZZ_CHECK(info.men > 0 && (double)info.men / info.scale <= RT_SCENARIO_MAX_AGENTS, "%lld men", (long long)info.men);
	for (int i = 0; i < info.history_count; ++i) {
		rt_history_figure h;
		FUZZ_CHECK(rt_scenario_get_history(sc, i, &h), "history %d missing", i);
		FUZZ_CHECK(h.recorded_low <= h.recorded_high, "history %d: %g > %g", i, h.recorded_low, h.recorded_high);
	}
	char when[64];
	rt_scenario_format_time(sc, info.duration_s, when, sizeof when);
	FUZZ_CHECK(strlen(when) >= 16, "time \"%s\"", when);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rt_scenario_def def = rt_scenario_def_default();
	def.allocator = fuzz_allocator();
	def.load_map = false;
	/* the first line may carry --set values: "#set a.b=c;d.e=f" */
	const char *sets[4];
	char setbuf[256];
	int nsets = 0;
	if (size > 5 && memcmp(data, "#set ", 5) == 0) {
		size_t n = 0;
		while (5 + n < size && data[5 + n] != '\n' && n < sizeof setbuf - 1) {
			setbuf[n] = (char)data[5 + n];
			n++;
		}
		setbuf[n] = '\0';
		for (char *tok = strtok(setbuf, ";"); tok && nsets < 4; tok = strtok(NULL, ";")) sets[nsets++] = tok;
		def.sets = sets;
		def.set_count = nsets;
	}
	rt_error err;
	rt_scenario *sc = NULL;
	fuzz_begin(-1);
	rt_status s = rt_scenario_load_string((const char *)data, size, "fuzz.yaml", NULL, &def, &sc, &err);
	if (s == RT_OK) {
		check_loaded(sc);
		rt_scenario_destroy(sc);
	} else {
		FUZZ_CHECK(sc == NULL, "*out not cleared");
		fuzz_check_error(s, &err);
	}
	const long made = fuzz_allocations;
	fuzz_end("the scenario reader");
	const long k = fuzz_pick(data, size, made);
	if (k >= 0) {
		fuzz_begin(k);
		sc = NULL;
		rt_status s2 = rt_scenario_load_string((const char *)data, size, "fuzz.yaml", NULL, &def, &sc, &err);
		FUZZ_CHECK(s2 == RT_ERR_NOMEM && sc == NULL, "allocation %ld of %ld refused: %s (%s)", k, made, rt_status_name(s2),
			   err.message);
		fuzz_end("the scenario reader, out of memory");
	}
	return 0;
}
