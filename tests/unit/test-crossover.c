/*
 * The crossover search on measurements made up here, so that where B
 * overtakes A is known in advance: each run's figure is A's 10 or B's 10
 * times a ratio of the size this test chooses, times a noise of a spread
 * it chooses (deterministic), each run lasting a second of a clock this
 * test keeps.  A known crossover is found with a bracket that holds it;
 * a pair with none says so; two are both found; a budget stops the search
 * in time; runs that fail end it; the order of runs is interleaved.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crossover_run.h"
#include "tap.h"

#define NS 1000000000ull

/* The ratio B / A of the figure at a size. */
typedef double (*ratio_fn)(size_t msg_size);

static unsigned long long seed;
/* Each run's intervals' floor (the estimator's rel_se). */
static double floor_rel_se = 0.005;

/* A standard normal, from an LCG: the same draws on every machine. */
static double normal(void)
{
	double sum = 0;

	for (int i = 0; i < 12; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		sum += (double)(seed >> 11) / 9007199254740992.0;
	}
	return sum - 6;
}

struct outcome {
	size_t runs[2];	 /* each side's */
	bool alternated; /* no side ran three times in a row at a size */
	double spent_s;
};

/*
 * Runs the search to its end: each run a second long, its figure around
 * the model's by noise (higher is better), its intervals' floor small.
 * fail_from: runs at sizes from this one on fail (0: none).
 */
static struct outcome search(struct crossover *x, ratio_fn ratio, double noise,
			     size_t fail_from)
{
	struct outcome o = {.alternated = true};
	uint64_t now = 5 * NS;
	size_t number = 1, msg_size, last_size = 0, streak = 0;
	int side, last_side = -1;

	seed = 42;
	while (crossover_next(x, now, &msg_size, &side)) {
		double v = 10 * (side ? ratio(msg_size) : 1) *
			   exp(noise * normal());
		struct crossover_run r = {
			.number = number++,
			.usable = !fail_from || msg_size < fail_from,
			.value = v,
			.series = {.count = 20,
				   .mean = v,
				   .spread = noise,
				   .rel_se = floor_rel_se,
				   .block = 3},
		};

		streak = msg_size == last_size && side == last_side ? streak + 1
								    : 1;
		if (streak > 2)
			o.alternated = false;
		last_size = msg_size;
		last_side = side;
		o.runs[side]++;
		now += NS;
		crossover_add(x, &r, r.usable ? NULL : "it broke", now);
	}
	o.spent_s = (double)(now - 5 * NS) / 1e9;
	return o;
}

static struct crossover_question question(size_t lo, size_t hi)
{
	return (struct crossover_question){
		.min_size = lo,
		.max_size = hi,
		.resolution = CROSSOVER_RESOLUTION,
		.budget_ms = 100000000,
		.min_runs = 2,
		.most_runs = CROSSOVER_RUNS_MOST,
		.higher_is_better = true,
		.planned_s = 1,
	};
}

static void labels(struct crossover *x)
{
	snprintf(x->label[0], sizeof(x->label[0]), "one-copy");
	snprintf(x->label[1], sizeof(x->label[1]), "sendfile");
	snprintf(x->metric_label, sizeof(x->metric_label), "Gbit/s");
}

/* Every size tried has runs of both sides, or failed ones. */
static bool both_sides(const struct crossover *x)
{
	for (size_t i = 0; i < x->size_count; i++)
		if (x->size[i].lead != LEAD_FAILED &&
		    (!x->size[i].runs[0] || !x->size[i].runs[1]))
			return false;
	return true;
}

/* No gap between sizes tried within lo .. hi is wider than factor. */
static bool gaps_within(const struct crossover *x, size_t lo, size_t hi,
			double factor)
{
	for (size_t i = 0; i + 1 < x->size_count; i++)
		if (x->size[i].msg_size >= lo &&
		    x->size[i + 1].msg_size <= hi &&
		    (double)x->size[i + 1].msg_size / x->size[i].msg_size >
			    factor + 1e-9)
			return false;
	return true;
}

/* B overtakes A at 8 KiB: a quarter behind below it, a third ahead above. */
static double at_8k(size_t msg_size)
{
	return msg_size < 8192 ? 0.75 : 1.33;
}

/*
 * B overtakes A gradually, equal at 8 KiB: within 5% of A from 7.8 to 8.6
 * KiB, and a noise of 3% a run cannot tell it there in 8 runs.
 */
static double slope_8k(size_t msg_size)
{
	return (double)msg_size / 8192;
}

static void test_found(void)
{
	struct crossover_question q = question(1024, 1048576);
	struct crossover x;
	struct outcome o;
	char line[CROSSOVER_TEXT_MAX];
	const struct crossover_bracket *b = &x.bracket[0];

	crossover_init(&x, &q);
	labels(&x);
	o = search(&x, at_8k, 0.03, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_FOUND, "a crossover at 8 KiB is found: %s",
	   x.why);
	ok(x.bracket_count == 1, "one bracket (%zu)", x.bracket_count);
	ok(b->below <= 8192 && b->above >= 8192,
	   "the bracket %zu .. %zu holds 8 KiB", b->below, b->above);
	ok(b->lead_below == LEAD_A && b->lead_above == LEAD_B,
	   "A ahead below it, B above it");
	ok((double)b->above / b->below <= q.resolution + 1e-9 ||
		   gaps_within(&x, b->below, b->above, q.resolution),
	   "narrower than the resolution, or no gap in it wider");
	ok(crossover_size_of(&x, b->below) && crossover_size_of(&x, b->above),
	   "both of the bracket's ends were tried");
	ok(crossover_size_of(&x, 1024) && crossover_size_of(&x, 1048576),
	   "both ends of the range were tried");
	ok(both_sides(&x), "every size tried has runs of both sides");
	ok(o.alternated, "no side ran three times in a row at a size");
	ok(o.runs[0] + o.runs[1] == x.runs && x.runs == x.run_count,
	   "every run is counted (%zu)", x.runs);
	ok(x.size_count < 16, "found in %zu sizes, not a grid", x.size_count);
	ok(strstr(line, "sendfile overtakes one-copy between ") == line,
	   "the line says who overtakes whom: %s", line);
	ok(strstr(line, "(Gbit/s, 95%;") != NULL, "and on what, how sure");
	crossover_fini(&x);

	crossover_init(&x, &q);
	labels(&x);
	search(&x, slope_8k, 0.03, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.bracket_count == 1 && b->below <= 8192 && b->above >= 8192 &&
		   b->lead_below == LEAD_A && b->lead_above == LEAD_B,
	   "a gradual crossover's bracket %zu .. %zu holds 8 KiB", b->below,
	   b->above);
	ok(gaps_within(&x, b->below, b->above, q.resolution),
	   "no gap in it wider than the resolution");
	ok(x.state == CROSSOVER_FOUND ||
		   (x.state == CROSSOVER_UNDECIDED &&
		    strstr(x.why, "were not decided") &&
		    strstr(line, ", not narrowed to 1.25x")),
	   "narrow, or said to be undecided between: %s", line);
	crossover_fini(&x);
}

static double behind(size_t msg_size)
{
	(void)msg_size;
	return 0.7;
}

static void test_none(void)
{
	struct crossover_question q = question(65536, 1048576);
	struct crossover x;
	char line[CROSSOVER_TEXT_MAX];

	crossover_init(&x, &q);
	labels(&x);
	search(&x, behind, 0.05, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_NONE, "none where A leads throughout: %s",
	   x.why);
	ok(x.bracket_count == 0, "no bracket");
	ok(gaps_within(&x, q.min_size, q.max_size, CROSSOVER_SCAN_FACTOR),
	   "no gap wider than %gx left untried", CROSSOVER_SCAN_FACTOR);
	ok(x.size_count == 3, "64K, 1M and one between (%zu sizes)",
	   x.size_count);
	ok(strstr(line, "no crossover in 64 KiB..1 MiB: one-copy ahead at "
			"every size tried (Gbit/s, 95%; 3 sizes, ") == line,
	   "said so: %s", line);
	crossover_fini(&x);
}

/* At the edge of the minimum effect at 1 KiB, a third behind above it. */
static double edge_then_behind(size_t msg_size)
{
	return msg_size <= 1024 ? 1.05 : 0.7;
}

/* A size left undecided is no answer: "no crossover decided", not "none". */
static void test_none_open(void)
{
	struct crossover_question q = question(1024, 65536);
	struct crossover x;
	char line[CROSSOVER_TEXT_MAX];

	crossover_init(&x, &q);
	labels(&x);
	search(&x, edge_then_behind, 0.2, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_UNDECIDED && x.size[0].lead == LEAD_UNDECIDED,
	   "undecided at 1 KiB, A ahead elsewhere: undecided (%s)", x.why);
	ok(strstr(line, "no crossover decided in 1 KiB..64 KiB: one-copy "
			"ahead at ") == line &&
		   strstr(line, "64 KiB; undecided at 1 KiB"),
	   "said so, with the sizes of each: %s", line);
	crossover_fini(&x);
}

/* B ahead only between 16 KiB and 128 KiB. */
static double bump(size_t msg_size)
{
	return msg_size > 16384 && msg_size < 131072 ? 1.5 : 0.7;
}

/* Sizes as the search says them: exact, as short as that allows. */
static void test_size_text(void)
{
	static const struct {
		size_t bytes;
		const char *text;
	} cases[] = {
		{640, "640 B"},	      {1024, "1 KiB"},
		{5760, "5.625 KiB"},  {15616, "15.25 KiB"},
		{184320, "180 KiB"},  {1048576, "1 MiB"},
		{1572864, "1.5 MiB"}, {1049601, "1049601 B"},
	};
	char text[24];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		crossover_size_text(cases[i].bytes, text, sizeof(text));
		ok(strcmp(text, cases[i].text) == 0, "%zu bytes: %s (%s)",
		   cases[i].bytes, text, cases[i].text);
	}
}

static void test_two(void)
{
	struct crossover_question q = question(1024, 1048576);
	struct crossover x;
	char line[CROSSOVER_TEXT_MAX];

	crossover_init(&x, &q);
	labels(&x);
	search(&x, bump, 0.05, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_FOUND, "two crossovers are found: %s", x.why);
	ok(x.bracket_count == 2, "two brackets (%zu)", x.bracket_count);
	ok(x.bracket[0].below <= 16384 && x.bracket[0].above > 16384 &&
		   x.bracket[0].lead_above == LEAD_B,
	   "B overtakes A at 16 KiB: %zu .. %zu", x.bracket[0].below,
	   x.bracket[0].above);
	ok(x.bracket[1].below < 131072 && x.bracket[1].above >= 131072 &&
		   x.bracket[1].lead_above == LEAD_A,
	   "A overtakes B again at 128 KiB: %zu .. %zu", x.bracket[1].below,
	   x.bracket[1].above);
	for (size_t i = 0; i < 2; i++)
		ok((double)x.bracket[i].above / x.bracket[i].below <=
			   q.resolution + 1e-9,
		   "bracket %zu narrower than the resolution", i + 1);
	ok(strstr(line, "more than one crossover in 1 KiB..1 MiB: sendfile "
			"overtakes one-copy between ") == line &&
		   strstr(line, "; one-copy overtakes sendfile between "),
	   "the line says both: %s", line);
	crossover_answer(&x, line, sizeof(line));
	ok(strstr(line, "sendfile overtakes one-copy between ") == line &&
		   strstr(line, "; one-copy overtakes sendfile between ") &&
		   !strstr(line, "(Gbit/s"),
	   "in short, both brackets, without the figure and cost: %s", line);
	/* Ended early, it says which brackets it left wider than asked. */
	x.state = CROSSOVER_BUDGET;
	crossover_answer(&x, line, sizeof(line));
	ok(!strstr(line, "not narrowed"), "both narrow: neither said wide: %s",
	   line);
	x.bracket[1].above = x.bracket[1].below * 4;
	crossover_answer(&x, line, sizeof(line));
	ok(strstr(line, "not narrowed") > strstr(line, "; ") &&
		   strstr(line, "; ") != NULL &&
		   strstr(strstr(line, "not narrowed") + 1, "not narrowed") ==
			   NULL,
	   "the second wider: it alone is said wide: %s", line);
	crossover_fini(&x);
}

static void test_budget(void)
{
	struct crossover_question q = question(1024, 1048576);
	struct crossover x;
	struct outcome o;
	char line[CROSSOVER_TEXT_MAX];

	q.budget_ms = 20000;
	crossover_init(&x, &q);
	labels(&x);
	o = search(&x, at_8k, 0.03, 0);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_BUDGET, "a budget of 20 s stops it: %s", x.why);
	ok(o.spent_s <= 20, "within its budget (%.0f s)", o.spent_s);
	ok(x.runs == 20, "as many runs as fit (%zu)", x.runs);
	ok(x.bracket_count == 1 && strstr(line, ", not narrowed to 1.25x"),
	   "the bracket so far, said to be wide: %s", line);
	crossover_fini(&x);

	q.budget_ms = 500;
	crossover_init(&x, &q);
	labels(&x);
	o = search(&x, at_8k, 0.03, 0);
	ok(x.state == CROSSOVER_BUDGET && x.runs == 0,
	   "a budget shorter than a run runs nothing: %s", x.why);
	crossover_fini(&x);
}

static void test_repeat_and_failures(void)
{
	struct crossover_question q = question(1024, 1048576);
	struct crossover x;

	q.min_runs = 4;
	crossover_init(&x, &q);
	labels(&x);
	search(&x, behind, 0.05, 0);
	ok(x.size[0].runs[0] >= 4 && x.size[0].runs[1] >= 4,
	   "--repeat 4: at least 4 runs a side at a size (%zu, %zu)",
	   x.size[0].runs[0], x.size[0].runs[1]);
	crossover_fini(&x);

	q = question(1024, 1048576);
	crossover_init(&x, &q);
	labels(&x);
	search(&x, at_8k, 0.03, 2048);
	ok(x.state == CROSSOVER_FAILED, "runs that fail end it: %s", x.why);
	ok(strstr(x.why, "it broke") != NULL, "naming the failure");
	crossover_fini(&x);
}

/* Within 5% either way, never decided: given up before its most runs. */
static double near(size_t msg_size)
{
	(void)msg_size;
	return 1.05;
}

static void test_undecided(void)
{
	struct crossover_question q = question(1024, 4096);
	struct crossover x;
	char line[CROSSOVER_TEXT_MAX];

	crossover_init(&x, &q);
	labels(&x);
	search(&x, near, 0.2, 0);
	ok(x.size[0].lead == LEAD_UNDECIDED,
	   "a ratio at the minimum effect is undecided");
	ok(x.size[0].runs[0] <= CROSSOVER_RUNS_MOST,
	   "after at most %d runs a side (%zu)", CROSSOVER_RUNS_MOST,
	   x.size[0].runs[0]);
	crossover_line(&x, line, sizeof(line));
	ok(x.state == CROSSOVER_UNDECIDED &&
		   strstr(line, "no crossover decided in 1 KiB..4 KiB: "
				"undecided at every size tried ("),
	   "no size decided is no answer: %s; %s", x.why, line);
	crossover_fini(&x);
}

/*
 * 17% ahead, each run's intervals' floor 15% and no spread between runs:
 * the test needs about 12 runs a side, more than the first cap.
 */
static double ahead_17(size_t msg_size)
{
	(void)msg_size;
	return 1.17;
}

/* Undecided sizes run on under a higher cap, while the budget lasts. */
static void test_raise(void)
{
	struct crossover_question q = question(1024, 4096);
	struct crossover x;
	size_t most = 0;

	crossover_init(&x, &q);
	labels(&x);
	floor_rel_se = 0.15;
	search(&x, ahead_17, 0, 0);
	floor_rel_se = 0.005;
	for (size_t i = 0; i < x.size_count; i++)
		if (x.size[i].runs[0] > most)
			most = x.size[i].runs[0];
	ok(most > CROSSOVER_RUNS_MOST && most <= CROSSOVER_RUNS_CEILING,
	   "a size got more than %d runs a side, at most %d (%zu)",
	   CROSSOVER_RUNS_MOST, CROSSOVER_RUNS_CEILING, most);
	ok(x.question.most_runs > CROSSOVER_RUNS_MOST,
	   "the cap was raised (%zu)", x.question.most_runs);
	ok(x.state == CROSSOVER_NONE && x.size[0].lead == LEAD_B,
	   "and decided B ahead: %s", x.why);
	crossover_fini(&x);
}

/* A search rebuilt from its runs alone is the same search. */
static void test_rebuild(void)
{
	struct crossover_question q = question(1024, 1048576);
	struct crossover x, y;
	bool same = true;

	crossover_init(&x, &q);
	labels(&x);
	search(&x, bump, 0.05, 0);
	crossover_init(&y, &q);
	y.run = calloc(x.run_count, sizeof(*y.run));
	memcpy(y.run, x.run, x.run_count * sizeof(*y.run));
	y.run_count = y.run_capacity = x.run_count;
	ok(crossover_rebuild(&y) == 0, "rebuilt");
	same = y.size_count == x.size_count &&
	       y.bracket_count == x.bracket_count;
	for (size_t i = 0; same && i < x.size_count; i++)
		same = y.size[i].msg_size == x.size[i].msg_size &&
		       y.size[i].lead == x.size[i].lead &&
		       y.size[i].difference.ratio == x.size[i].difference.ratio;
	ok(same, "the same sizes, leads, ratios and brackets");
	crossover_fini(&x);
	crossover_fini(&y);
}

static void test_text(void)
{
	char out[32];

	crossover_size_text(9216, out, sizeof(out));
	ok(strcmp(out, "9 KiB") == 0, "9216 is 9 KiB (%s)", out);
	crossover_size_text(1536 * 1024, out, sizeof(out));
	ok(strcmp(out, "1.5 MiB") == 0, "1.5 MiB (%s)", out);
	crossover_duration_text(220, out, sizeof(out));
	ok(strcmp(out, "3 min 40 s") == 0, "220 s is 3 min 40 s (%s)", out);
	crossover_duration_text(52.4, out, sizeof(out));
	ok(strcmp(out, "52 s") == 0, "52 s (%s)", out);
}

/* A grid's verdict suggests the search that narrows its bracket. */
static void test_suggest(void)
{
	struct analysis_crossover c = {
		.mode = RUN_STREAM,
		.threads = 2,
		.strategy = "one-copy",
		.versus = "two-copy",
		.verdict = VERDICT_FROM,
		.msg_size = 16384,
		.size_count = 3,
		.size = {{.msg_size = 1024},
			 {.msg_size = 4096},
			 {.msg_size = 16384}},
	};
	char out[512];

	ok(crossover_suggest(&c, out, sizeof(out)) &&
		   strcmp(out, "the grid puts the crossover between 4K and "
			       "16K; nio-top --crossover "
			       "strategy=two-copy,one-copy -t 2 -m 4K..16K "
			       "narrows it") == 0,
	   "from 16K after 4K: %s", out);
	c.rx_pair = true;
	c.rx = RX_TRUNC;
	c.versus = "one-copy";
	ok(crossover_suggest(&c, out, sizeof(out)) &&
		   strstr(out, "--crossover rx=copy,trunc -s one-copy -t 2 "),
	   "a receive side against copy: %s", out);
	c.rx_pair = false;
	c.rx = RX_COPY;
	c.stack_pair = true;
	c.stack.gso_max_size = 185000;
	ok(crossover_suggest(&c, out, sizeof(out)) &&
		   strstr(out,
			  "--crossover gso_ipv4_max_size=as-built,185000 -s "
			  "one-copy "),
	   "a knob against as built: %s", out);
	c.msg_size = 1024;
	ok(!crossover_suggest(&c, out, sizeof(out)),
	   "none from the smallest size: no bracket");
	c.msg_size = 16384;
	c.verdict = VERDICT_UNDECIDED;
	ok(!crossover_suggest(&c, out, sizeof(out)), "none when undecided");
}

int main(void)
{
	test_found();
	test_none();
	test_none_open();
	test_size_text();
	test_two();
	test_budget();
	test_repeat_and_failures();
	test_undecided();
	test_raise();
	test_rebuild();
	test_text();
	test_suggest();
	return tap_done();
}
