/*
 * Command-line parsing: sizes with suffixes and their range, lists, and that
 * every bad value is refused with a cause naming the option and the value;
 * and a strategy's step text said with the --fields given.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonfile.h"
#include "options.h"
#include "plan.h"
#include "tap.h"
#include "units.h"

/* The text with control characters as \ooo: a TAP line stays one line. */
static void visible(const char *text, char *out, size_t size)
{
	size_t n = 0;

	for (; *text && n + 5 < size; text++) {
		if ((unsigned char)*text < 0x20)
			n += (size_t)snprintf(out + n, size - n, "\\%03o",
					      (unsigned char)*text);
		else
			out[n++] = *text;
	}
	out[n] = '\0';
}

static void test_sizes(void)
{
	static const struct {
		const char *text;
		int result;
		size_t bytes;
	} cases[] = {
		{"64", 0, 64},	       {"1001", 0, 1001},
		{"4K", 0, 4096},       {"16k", 0, 16384},
		{"1M", 0, 1048576},    {"4M", 0, 4194304},
		{"63", -ERANGE, 0},    {"5M", -ERANGE, 0},
		{"4097K", -ERANGE, 0}, {"99999999999M", -ERANGE, 0},
		{"12Q", -EINVAL, 0},   {"", -EINVAL, 0},
		{"-64", -EINVAL, 0},   {"K", -EINVAL, 0},
		{"1.5K", -EINVAL, 0},  {"4KB", -EINVAL, 0},
		{" 64", -EINVAL, 0},   {"\v668", -EINVAL, 0},
		{"\t4K", -EINVAL, 0},  {"\n64", -EINVAL, 0},
		{"+64", -EINVAL, 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t bytes = 0;
		int r = units_parse_size(cases[i].text, &bytes);
		char shown[32];

		visible(cases[i].text, shown, sizeof(shown));
		ok(r == cases[i].result && (r < 0 || bytes == cases[i].bytes),
		   "size '%s' -> %d (%zu)", shown, r, bytes);
	}
}

static void test_rates_and_subnets(void)
{
	struct in_addr net;
	unsigned int prefix = 0;
	uint64_t bps = 0;

	ok(units_parse_rate("1G", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS, &bps) ==
			   0 &&
		   bps == 1000000000ull,
	   "rate 1G is 10^9 bit/s");
	ok(units_parse_rate("500M", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
			    &bps) == 0 &&
		   bps == 500000000ull,
	   "rate 500M is 5 * 10^8 bit/s");
	ok(units_parse_rate("2.5G", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
			    &bps) == 0 &&
		   bps == 2500000000ull,
	   "rate 2.5G");
	ok(units_parse_rate("7K", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS, &bps) ==
		   -ERANGE,
	   "rate 7K is below the range");
	ok(units_parse_rate("18G", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
			    &bps) == -ERANGE,
	   "rate 18G is beyond tbf's int");
	ok(units_parse_rate("1Gbit", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
			    &bps) == -EINVAL,
	   "rate 1Gbit is no rate");
	ok(units_parse_rate("\t1G", TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
			    &bps) == -EINVAL,
	   "rate with leading white space is no rate");
	ok(topo_subnet_parse("198.18.4.0/30", &net, &prefix) == 0 &&
		   prefix == 30 && ntohl(net.s_addr) == 0xc6120400,
	   "subnet 198.18.4.0/30");
	ok(topo_subnet_parse("198.18.4.1/30", &net, &prefix) == -EINVAL,
	   "host bits set are refused");
	ok(topo_subnet_parse("198.18.4.0/31", &net, &prefix) == -EINVAL,
	   "a /31 has no room for two hosts");
	ok(topo_subnet_parse("198.18.4.0", &net, &prefix) == -EINVAL,
	   "a subnet needs its prefix");
}

static int parse(struct options *o, char **cause, int argc, ...)
{
	char *argv[16] = {"nio-top"};
	va_list ap;

	va_start(ap, argc);
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return options_parse(argc, argv, o, cause);
}

static void test_good(void)
{
	struct options o;
	char *cause;
	int r;

	r = parse(&o, &cause, 11, "--batch", "-s", "one-copy,zero-copy", "-m",
		  "256,4K,64K", "-t", "1,2", "-d", "0.25", "--verify");
	ok(r == 0, "a full command line parses");
	ok(o.batch && o.run.verify, "--batch and --verify set");
	ok(o.strategy_count == 2 && o.strategies[1] == &strategy_zero_copy,
	   "two strategies, in order");
	ok(o.msg_size_count == 3 && o.msg_sizes[2] == 65536, "three sizes");
	ok(o.thread_count == 2 && o.threads[1] == 2, "two thread counts");
	ok(o.run.duration_ms == 250, "0.25 s is 250 ms");
	r = parse(&o, &cause, 3, "--events", "none");
	ok(r == 0 && o.event_count == 0, "--events none counts nothing");

	r = parse(&o, &cause, 1);
	ok(r == 0 && o.strategy_count == strategy_count() &&
		   o.run.duration_ms == 5000 && o.run.warmup_ms == 500 &&
		   o.msg_sizes[0] == 16384,
	   "defaults: every strategy, 16K, 5 s, 0.5 s warm-up");
}

static void test_bad(void)
{
	static const struct {
		const char *option;
		const char *value;
		const char *named;
	} cases[] = {
		{"-m", "12Q", "--msg-size: '12Q'"},
		{"-m", "4K,,8K", "--msg-size: '4K,,8K'"},
		{"-t", "0", "--threads: '0'"},
		{"-t", "65", "--threads: '65'"},
		{"-s", "nope", "--strategy: 'nope'"},
		{"-d", "-1", "--duration: '-1'"},
		{"-d", "0", "--duration: '0'"},
		{"-d", "nan", "--duration: 'nan'"},
		{"-w", "-0.5", "--warmup: '-0.5'"},
		{"--slots", "4097", "--slots: '4097'"},
		{"--topology", "mesh", "--topology: 'mesh'"},
		{"--bogus", "x", "'--bogus'"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char *cause = NULL;
		int r = parse(&o, &cause, 3, cases[i].option, cases[i].value);

		ok(r == -EINVAL && cause && strstr(cause, cases[i].named),
		   "%s %s is refused naming it: %s", cases[i].option,
		   cases[i].value, cause ? cause : "(no cause)");
		free(cause);
	}
}

/* The explorer's controls are rows of the table, stepped through it. */
static const struct option_row *control(const char *name)
{
	for (size_t i = 0; i < options_control_count(); i++)
		if (strcmp(options_control_at(i)->name, name) == 0)
			return options_control_at(i);
	return NULL;
}

static bool not_one_copy(const struct run_config *c, void *arg)
{
	(void)arg;
	return strcmp(c->strategy->name, "one-copy") != 0;
}

static void test_controls(void)
{
	const struct option_row *size = control("msg-size");
	const struct option_row *threads = control("threads");
	const struct option_row *strategy = control("strategy");
	const struct option_row *duration = control("duration");
	const struct option_row *mode = control("mode");
	struct run_config c = {
		.strategy = strategy_at(0), .msg_size = 3000, .threads = 64};
	bool read[OPTIONS_MAX] = {false};
	struct run_config back = {0};
	struct options o;
	char text[48], *printed;
	double toggled = 0;
	cJSON *json;

	ok(size && threads && strategy && duration && mode &&
		   options_control_at(0) == strategy,
	   "the strategy, size, threads, mode and duration rows are "
	   "controls, the strategy first (%zu in all)",
	   options_control_count());
	for (size_t k = 0; k < options_control_count(); k++) {
		const struct option_row *row = options_control_at(k);
		const char *const *f = row->control->figures;

		for (; f && *f; f++)
			ok(metric_find(*f) >= 0 &&
				   (metrics[metric_find(*f)].show &
				    METRIC_GAUGE),
			   "%s moves the %s gauge, a row of the metric table",
			   row->control->label, *f);
	}
	ok(size && options_control_step(size, &c, 1, NULL, NULL) &&
		   c.msg_size == 4096,
	   "a size between steps goes up to the next: 3000 -> %zu", c.msg_size);
	c.msg_size = 3000;
	options_control_step(size, &c, -1, NULL, NULL);
	ok(c.msg_size == 2048, "and down to the one before: %zu", c.msg_size);
	c.msg_size = 4194304;
	ok(!options_control_step(size, &c, 1, NULL, NULL) &&
		   c.msg_size == 4194304,
	   "no size past 4 MiB");
	options_control_text(size, &c, text, sizeof(text));
	ok(strcmp(text, "4 MiB") == 0, "a size reads 4 MiB: %s", text);
	ok(!options_control_step(threads, &c, 1, NULL, NULL) && c.threads == 64,
	   "threads stop at 64");
	options_control_step(threads, &c, -3, NULL, NULL);
	ok(c.threads == 61, "three steps down: %u", c.threads);
	c.strategy = strategy_find("two-copy");
	options_control_step(strategy, &c, 1, not_one_copy, NULL);
	ok(strcmp(c.strategy->name, "one-copy") != 0 &&
		   strategy_index(c.strategy) ==
			   (strategy_index(strategy_find("one-copy")) + 1) %
				   strategy_count(),
	   "a strategy not allowed is stepped over: two-copy -> %s",
	   c.strategy->name);
	c.strategy = strategy_at(0);
	options_control_step(strategy, &c, -1, NULL, NULL);
	ok(c.strategy == strategy_at(strategy_count() - 1),
	   "strategies go round: the first's previous is the last (%s)",
	   c.strategy->name);
	c.mode = RUN_STREAM;
	options_control_step(mode, &c, 1, NULL, NULL);
	options_control_text(mode, &c, text, sizeof(text));
	ok(c.mode == RUN_RR && strcmp(text, "rr") == 0, "stream -> %s", text);
	c.settings.busy_poll = 10;
	options_control_text(control("busy-poll"), &c, text, sizeof(text));
	ok(strcmp(text, "10 us") == 0, "busy polling reads with its unit: %s",
	   text);
	c.settings.busy_poll = 0;
	options_control_text(control("busy-poll"), &c, text, sizeof(text));
	ok(strcmp(text, "none") == 0, "and 0 reads %s", text);
	c.settings.gso_max_size = 185000;
	options_control_text(control("gso-ipv4-max-size"), &c, text,
			     sizeof(text));
	ok(strcmp(text, "185000 B") == 0, "a GSO size reads in bytes: %s",
	   text);
	c.settings.gso_max_size = 0;
	c.settings.duration_ms = 0;
	options_control_text(duration, &c, text, sizeof(text));
	ok(strcmp(text, "continuous") == 0, "a duration of 0 reads %s", text);
	options_control_toggle(duration, &c, &toggled);
	options_control_text(duration, &c, text, sizeof(text));
	ok(c.settings.duration_ms == 5000 && strcmp(text, "5 s") == 0,
	   "Enter makes it timed: %s", text);
	options_control_step(duration, &c, 1, NULL, NULL);
	ok(c.settings.duration_ms == 10000, "then 5 s -> %llu ms",
	   (unsigned long long)c.settings.duration_ms);
	options_control_toggle(duration, &c, &toggled);
	options_control_toggle(duration, &c, &toggled);
	ok(c.settings.duration_ms == 10000,
	   "Enter twice comes back to 10 s, not 5 s: %llu ms",
	   (unsigned long long)c.settings.duration_ms);

	/* As settings.json has them: written out and read again. */
	json = options_controls_to_json(&c);
	printed = cJSON_PrintUnformatted(json);
	cJSON_Delete(json);
	json = cJSON_Parse(printed);
	free(printed);
	options_controls_from_json(json, &back, read);
	ok(back.strategy == c.strategy && back.msg_size == c.msg_size &&
		   back.threads == c.threads && back.mode == c.mode &&
		   back.settings.duration_ms == c.settings.duration_ms &&
		   read[0] && read[1] && read[2] && read[3] && read[4],
	   "the controls written as JSON read back the same");
	cJSON_Delete(json);
	options_defaults(&o);
	read[1] = false; /* the size was not read: it stays the default */
	options_from_run(&o, &back, read);
	ok(o.strategy_count == 1 && o.strategies[0] == c.strategy &&
		   o.msg_sizes[0] == 16384 && o.threads[0] == 61 &&
		   o.modes[0] == RUN_RR && o.run.duration_ms == 10000 &&
		   options_given(&o, "threads") &&
		   !options_given(&o, "msg-size"),
	   "the controls read become the options, given; the rest stay");
}

/* A JSON text as cJSON (the test's own, well formed). */
static cJSON *json_of(const char *text)
{
	cJSON *j = cJSON_Parse(text);

	if (!j)
		abort();
	return j;
}

/*
 * BIG TCP's sizes are named as the kernel names them (gso_ipv4_max_size),
 * and read under their former names too, from the command line, presets,
 * a run's settings in a file and the explorer's settings; written only new.
 */
static void test_former_names(void)
{
	struct options o;
	struct run_config c = {0};
	char events[COUNTERS_MAX][48], *cause = NULL, *text;
	unsigned int event_count;
	bool read[OPTIONS_MAX] = {false};
	cJSON *j;
	int r;

	r = parse(&o, &cause, 5, "--gso-ipv4-max-size", "0,185000",
		  "--gro-ipv4-max-size", "185000");
	ok(r == 0 && o.gso_size_count == 2 && o.gso_sizes[1] == 185000 &&
		   o.run.gro_max_size == 185000 &&
		   options_given(&o, "gso-ipv4-max-size"),
	   "--gso-ipv4-max-size 0,185000 --gro-ipv4-max-size 185000 (%s)",
	   cause ? cause : "ok");
	free(cause);
	r = parse(&o, &cause, 5, "--gso-max-size", "0,185000", "--gro-max-size",
		  "185000");
	ok(r == 0 && o.gso_size_count == 2 && o.gso_sizes[1] == 185000 &&
		   o.run.gro_max_size == 185000 &&
		   options_given(&o, "gso-ipv4-max-size"),
	   "their former names, --gso-max-size and --gro-max-size, set the "
	   "same (%s)",
	   cause ? cause : "ok");
	free(cause);

	options_defaults(&o);
	j = json_of("{\"format\": \"nio-top-preset\", \"version\": 1, "
		    "\"topology\": {\"gso_max_size\": [185000], "
		    "\"gro_max_size\": 185000}}");
	r = options_from_preset(j, "old.json", &o, &cause);
	ok(r == 0 && o.gso_sizes[0] == 185000 && o.run.gro_max_size == 185000 &&
		   !o.warnings,
	   "a preset's topology.gso_max_size and gro_max_size read, no "
	   "warning (%s)",
	   cause	? cause
	   : o.warnings ? o.warnings
			: "ok");
	free(cause);
	cause = NULL;
	cJSON_Delete(j);
	j = options_to_preset(&o);
	text = cJSON_PrintUnformatted(j);
	ok(text && strstr(text, "\"gso_ipv4_max_size\":[185000]") &&
		   strstr(text, "\"gro_ipv4_max_size\":185000") &&
		   !strstr(text, "\"gso_max_size\"") &&
		   !strstr(text, "\"gro_max_size\""),
	   "a preset is written with the new keys only");
	free(text);
	cJSON_Delete(j);
	free(o.warnings);

	c = plan_point(&o, &(struct run_config){0});
	j = cJSON_CreateObject();
	options_run_to_json(&c, j);
	ok(cJSON_GetObjectItem(j, "gso_ipv4_max_size") &&
		   cJSON_GetObjectItem(j, "gro_ipv4_max_size") &&
		   !cJSON_GetObjectItem(j, "gso_max_size") &&
		   !cJSON_GetObjectItem(j, "gro_max_size"),
	   "a run's settings are written with the new keys only");
	cJSON_DeleteItemFromObject(j, "gso_ipv4_max_size");
	cJSON_DeleteItemFromObject(j, "gro_ipv4_max_size");
	cJSON_AddNumberToObject(j, "gso_max_size", 131072);
	cJSON_AddNumberToObject(j, "gro_max_size", 262144);
	/* As a file holds it: 64-bit counts are read from their text. */
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	j = NULL;
	if (jsonfile_parse("run", text, strlen(text), &j, &cause) < 0)
		abort();
	free(text);
	memset(&c.settings, 0, sizeof(c.settings));
	r = options_run_from_json(j, "runs[0]", CODEC_FILE, true, &c, events,
				  &event_count, &cause);
	ok(r == 0 && c.settings.gso_max_size == 131072 &&
		   c.settings.gro_max_size == 262144,
	   "an export's run with the former keys reads them (%s)",
	   cause ? cause : "ok");
	free(cause);
	r = options_run_from_json(j, "run", CODEC_STRICT, true, &c, events,
				  &event_count, &cause);
	ok(r < 0 && cause && strstr(cause, "gso_ipv4_max_size"),
	   "the protocol (strict) wants the new key: %s", cause);
	free(cause);
	cJSON_Delete(j);

	j = json_of("{\"gso_max_size\": 262144}");
	memset(&c, 0, sizeof(c));
	options_controls_from_json(j, &c, read);
	ok(c.settings.gso_max_size == 262144,
	   "the explorer's settings from before read their GSO size");
	cJSON_Delete(j);
}

static void test_step_text(void)
{
	char said[128];

	strategy_step_text("sender: {fields} message fields on the heap", 8,
			   said, sizeof(said));
	ok(strcmp(said, "sender: 8 message fields on the heap") == 0, "%s",
	   said);
	strategy_step_text("sender: {fields} message fields on the heap", 1,
			   said, sizeof(said));
	ok(strcmp(said, "sender: 1 message field on the heap") == 0, "%s",
	   said);
	strategy_step_text("recvmsg({fields}-entry iovec)", 1, said,
			   sizeof(said));
	ok(strcmp(said, "recvmsg(1-entry iovec)") == 0, "%s", said);
}

int main(void)
{
	test_sizes();
	test_rates_and_subnets();
	test_good();
	test_bad();
	test_controls();
	test_former_names();
	test_step_text();
	return tap_done();
}
