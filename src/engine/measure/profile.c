/*
 * A thread's cpu-clock sampling event and its ring (perf_ring.h), read from
 * another thread.  Each sample's call chain, leaf first, is named
 * (symbols.h) and put in the role of its first frame that has one (role.h);
 * the leaf's function is counted too.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_ring.h"
#include "profile.h"
#include "symbols.h"

/* Pages of a thread's ring (a power of two): ~40 ticks of samples. */
#define RING_PAGES 32
/* The frames of a chain that are looked at. */
#define CHAIN_MAX 64

static const struct record_field profile_fields[] = {
	RECORD_FIELD("hz", RECORD_UINT, struct run_profile, hz),
	RECORD_FIELD("samples", RECORD_U64, struct run_profile, samples),
	RECORD_FIELD("lost", RECORD_U64, struct run_profile, lost),
	RECORD_FIELD("user_only", RECORD_BOOL, struct run_profile, user_only),
	RECORD_TEXT_FIELD("why", struct run_profile, why),
};
const struct record run_profile_record = RECORD_OF(profile_fields);

static const struct record_field top_fields[] = {
	RECORD_TEXT_FIELD("symbol", struct profile_top, symbol),
	RECORD_TEXT_FIELD("object", struct profile_top, object),
	RECORD_TEXT_FIELD("role", struct profile_top, role),
	RECORD_FIELD("samples", RECORD_U64, struct profile_top, samples),
	RECORD_FIELD("share", RECORD_NUMBER, struct profile_top, share),
};
const struct record profile_top_record = RECORD_OF(top_fields);

int profile_thread_open(struct profile_thread *t, pid_t tid, unsigned int hz)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000000ull / (hz ? hz : 1),
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_CALLCHAIN,
		.sample_max_stack = CHAIN_MAX,
		.disabled = 1,
		.exclude_hv = 1,
	};
	int r;

	*t = (struct profile_thread){0};
	/* perf_event_paranoid 2: this user may sample user space. */
	r = perf_ring_open(&t->ring, &attr, tid, RING_PAGES, RING_PAGES,
			   &t->user_only);
	t->error = -r;
	return r;
}

void profile_thread_close(struct profile_thread *t)
{
	perf_ring_close(&t->ring);
}

void profile_thread_enable(struct profile_thread *t, bool on)
{
	perf_ring_enable(&t->ring, on);
}

/* Where a function in a role starts its search: symbol and role mixed. */
static size_t function_hash(uint32_t symbol, uint32_t role, size_t mask)
{
	return ((size_t)symbol * 31 + role) & mask;
}

/*
 * The entry for symbol in role, made if need be (a function whose samples
 * went to two roles has an entry in each); NULL without memory.
 */
static struct profile_function *function_slot(struct profile_counts *c,
					      uint32_t symbol, uint32_t role)
{
	size_t mask, i;

	if (c->count * 2 >= c->capacity) {
		size_t capacity = c->capacity ? c->capacity * 2 : 256;
		struct profile_function *grown = calloc(capacity,
							sizeof(*grown));

		if (!grown)
			return NULL;
		for (size_t k = 0; k < c->capacity; k++) {
			const struct profile_function *f = &c->slot[k];

			if (!f->samples)
				continue;
			for (i = function_hash(f->symbol, f->role,
					       capacity - 1);
			     grown[i].samples; i = (i + 1) & (capacity - 1))
				;
			grown[i] = *f;
		}
		free(c->slot);
		c->slot = grown;
		c->capacity = capacity;
	}
	mask = c->capacity - 1;
	for (i = function_hash(symbol, role, mask); c->slot[i].samples;
	     i = (i + 1) & mask)
		if (c->slot[i].symbol == symbol && c->slot[i].role == role)
			return &c->slot[i];
	c->count++;
	c->slot[i].symbol = symbol;
	c->slot[i].role = role;
	return &c->slot[i];
}

/* One more sample of symbol, in role. */
static void count_function(struct profile_counts *c, uint32_t symbol,
			   uint32_t role)
{
	struct profile_function *f = function_slot(c, symbol, role);

	if (f)
		f->samples++;
}

/* A symbol's role, remembered: the table is walked once per function. */
static uint32_t role_of(uint32_t symbol, bool kernel)
{
	static uint8_t *known; /* role + 1 by symbol id; 0: not yet */
	static size_t capacity;
	size_t role;

	if (symbol == SYMBOL_NONE)
		return UINT32_MAX;
	if (symbol >= capacity) {
		size_t grown_capacity = (symbol + 1) * 2;
		uint8_t *grown = realloc(known, grown_capacity);

		if (!grown)
			return (uint32_t)role_of_function(symbols_name(symbol),
							  kernel);
		memset(grown + capacity, 0, grown_capacity - capacity);
		known = grown;
		capacity = grown_capacity;
	}
	if (!known[symbol]) {
		role = role_of_function(symbols_name(symbol), kernel);
		known[symbol] = role == SIZE_MAX ? UINT8_MAX
						 : (uint8_t)(role + 1);
	}
	return known[symbol] == UINT8_MAX ? UINT32_MAX : known[symbol] - 1u;
}

/*
 * One sample's chain (leaf first, with perf's context markers): its role is
 * the first frame's that has one.
 */
static void tally_chain(struct profile_tally *tally, const uint64_t *ip,
			uint64_t nr)
{
	uint32_t leaf = SYMBOL_NONE, matched = SYMBOL_NONE, role = UINT32_MAX;
	bool kernel = true, first = true;

	for (uint64_t i = 0; i < nr && i < CHAIN_MAX; i++) {
		uint32_t symbol;

		if (ip[i] >= PERF_CONTEXT_MAX) {
			kernel = ip[i] == PERF_CONTEXT_KERNEL;
			continue;
		}
		symbol = symbols_find(ip[i], kernel);
		if (first)
			leaf = symbol;
		first = false;
		role = role_of(symbol, kernel);
		if (role != UINT32_MAX) {
			matched = symbol;
			break;
		}
	}
	if (role == UINT32_MAX)
		role = (uint32_t)role_other;
	tally->samples++;
	tally->role[role]++;
	count_function(&tally->leaves, leaf, role);
	if (matched != SYMBOL_NONE)
		count_function(&tally->frames, matched, role);
}

/* One record of a thread's ring into the side's tally. */
static void profile_record(const struct perf_event_header *h, void *arg)
{
	struct profile_tally *tally = arg;

	if (h->type == PERF_RECORD_SAMPLE) {
		/* ip, pid and tid, then the chain: nr and its ips. */
		const uint64_t *u = (const uint64_t *)(h + 1);

		if (h->size >= sizeof(*h) + 3 * sizeof(uint64_t) &&
		    h->size >= sizeof(*h) + (3 + u[2]) * sizeof(*u))
			tally_chain(tally, u + 3, u[2]);
	} else if (h->type == PERF_RECORD_LOST) {
		tally->lost += ((const uint64_t *)(h + 1))[1];
	}
}

void profile_thread_drain(struct profile_thread *t, struct profile_tally *tally)
{
	perf_ring_read(&t->ring, profile_record, tally);
}

void profile_tally_fini(struct profile_tally *tally)
{
	free(tally->leaves.slot);
	free(tally->frames.slot);
	*tally = (struct profile_tally){0};
}

/* The functions of a tally with the most samples (in role, or any). */
static size_t top_functions(const struct profile_tally *tally, uint32_t role,
			    struct profile_top *top, size_t most)
{
	size_t n = 0;

	for (size_t k = 0; k < tally->leaves.capacity; k++) {
		const struct profile_function *f = &tally->leaves.slot[k];
		size_t at;

		if (!f->samples || (role != UINT32_MAX && f->role != role))
			continue;
		for (at = n; at > 0 && top[at - 1].samples < f->samples; at--)
			;
		if (at == most)
			continue;
		memmove(&top[at + 1], &top[at],
			((n < most ? n : most - 1) - at) * sizeof(*top));
		top[at] = (struct profile_top){
			.samples = f->samples,
			.share = tally->samples ? (double)f->samples /
							  (double)tally->samples
						: NAN};
		snprintf(top[at].role, sizeof(top[at].role), "%s",
			 roles[f->role].key);
		snprintf(top[at].symbol, sizeof(top[at].symbol), "%s",
			 symbols_name(f->symbol));
		snprintf(top[at].object, sizeof(top[at].object), "%s",
			 symbols_object(f->symbol));
		if (n < most)
			n++;
	}
	return n;
}

/* Each role's function that gave it most samples. */
static void role_functions(const struct profile_tally *tally,
			   struct run_profile *out)
{
	uint64_t most[ROLES_MAX] = {0};

	memset(out->role_function, 0, sizeof(out->role_function));
	for (size_t k = 0; k < tally->frames.capacity; k++) {
		const struct profile_function *f = &tally->frames.slot[k];

		if (!f->samples || f->role >= ROLES_MAX ||
		    f->samples <= most[f->role])
			continue;
		most[f->role] = f->samples;
		snprintf(out->role_function[f->role],
			 sizeof(out->role_function[0]), "%s",
			 symbols_name(f->symbol));
	}
}

void profile_summarize(const struct profile_tally *tally, unsigned int hz,
		       struct run_profile *out)
{
	out->present = true;
	out->hz = hz;
	out->samples = tally->samples;
	out->lost = tally->lost;
	memcpy(out->role, tally->role, sizeof(out->role));
	out->top_count = top_functions(tally, UINT32_MAX, out->top,
				       PROFILE_TOP);
	out->other_count = top_functions(tally, (uint32_t)role_other,
					 out->other, PROFILE_TOP);
	role_functions(tally, out);
}

double run_profile_sample_share(const struct run_profile *p, size_t r)
{
	if (!p->samples || r >= ROLES_MAX)
		return NAN;
	return (double)p->role[r] / (double)p->samples;
}

double run_profile_share(const struct run_profile *p, size_t r)
{
	/* User space's samples are no share of the whole CPU. */
	return p->user_only ? NAN : run_profile_sample_share(p, r);
}

double run_profile_copy_share(const struct run_profile *p)
{
	uint64_t copy = 0;

	if (!p->samples || p->user_only)
		return NAN;
	for (size_t r = 0; r < role_count; r++)
		if (role_is_copy(r))
			copy += p->role[r];
	return (double)copy / (double)p->samples;
}

void profile_why(int error, bool user_only, char *out, size_t size)
{
	if (error == EACCES || error == EPERM)
		snprintf(out, size,
			 "sampling is not allowed to this user "
			 "(kernel.perf_event_paranoid): run as root, or sysctl "
			 "kernel.perf_event_paranoid=1");
	else if (error == ENOENT || error == ENODEV || error == EOPNOTSUPP)
		snprintf(out, size,
			 "this kernel has no cpu-clock sampling event: %s",
			 strerror(error));
	else if (error)
		snprintf(out, size, "the sampling event did not open: %s",
			 strerror(error));
	else if (user_only)
		snprintf(out, size,
			 "user space only: kernel samples are not allowed to "
			 "this user (kernel.perf_event_paranoid): run as root, "
			 "or sysctl kernel.perf_event_paranoid=1");
	else
		out[0] = '\0';
}
