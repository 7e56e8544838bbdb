/*
 * The drift of each figure between two studies: the defaults measured
 * here, and --drift over them.
 */
#include <string.h>

#include "drift.h"

/*
 * bench/gate.sh's A/A pairs (-s one-copy,zero-copy -m 4K,64K --repeat 5
 * -d 1, a study and the same a minute later, quiet, 2 CPUs, Linux 6.18):
 * for each figure the least drift, in half per cents, with which at most
 * a tenth of the odd pairs' rows is called changed; the even pairs' rows,
 * judged with it, were called in 0 to 8% (the README's table).  A figure
 * those studies do not measure (the PMU's, a round trip's) takes the
 * largest of them.
 */
static const struct {
	const char *key, *side; /* side NULL: delivered, or either */
	double pct;
} measured[] = {
	{"gbps", NULL, 2},
	{"msgs_per_s", NULL, 2},
	{"cpu_pct", "sender", 0},
	{"cpu_pct", "receiver", 5},
	{"cpu_ns_per_kib", "sender", 0},
	{"cpu_ns_per_kib", "receiver", 7.5},
	{"ctx_switches_per_s", "sender", 0},
	{"ctx_switches_per_s", "receiver", 3.5},
	{"ctx_switches_per_msg", "sender", 6},
	{"ctx_switches_per_msg", "receiver", 0},
	{"syscalls_per_msg", "sender", 0},
	{"syscalls_per_msg", "receiver", 0},
};
#define DRIFT_UNMEASURED_PCT 7.5

double drift_of(const struct drift_rule *given, size_t count, const char *key,
		const char *side)
{
	for (size_t i = count; i-- > 0;)
		if ((!given[i].key[0] || strcmp(given[i].key, key) == 0) &&
		    rule_side_matches(given[i].side, side))
			return given[i].pct / 100;
	for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++)
		if (strcmp(measured[i].key, key) == 0 &&
		    (!measured[i].side || !side ||
		     strcmp(measured[i].side, side) == 0))
			return measured[i].pct / 100;
	return DRIFT_UNMEASURED_PCT / 100.0;
}
