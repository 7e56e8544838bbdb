/*
 * The strategy registry: the one list of send/receive paths nio-top knows, in
 * the order the CLI, the export and the UI show them.
 */
#include <stdio.h>
#include <string.h>

#include "rx_side.h"
#include "slot_pool.h"
#include "strategy.h"
#include "sysfile.h"

static const struct strategy_ops *const strategies[] = {
	&strategy_two_copy, &strategy_one_copy, &strategy_zero_copy,
	&strategy_uring,    &strategy_uring_zc, &strategy_sendfile,
	&strategy_splice,
};

/* The receive sides, one row each, in enum rx_mode's order (RX_SIDES). */
static const struct rx_side *const rx_sides[RX_MODE_COUNT] = {
#define RX_SIDE_ROW(upper, lower) [RX_##upper] = &rx_side_##lower,
	RX_SIDES(RX_SIDE_ROW)
#undef RX_SIDE_ROW
};

/* Their names, as the option table and every list shows them. */
const char *rx_mode_names[RX_MODE_COUNT + 1];

__attribute__((constructor)) static void rx_mode_names_fill(void)
{
	for (size_t i = 0; i < RX_MODE_COUNT; i++)
		rx_mode_names[i] = rx_sides[i]->name;
}

const struct rx_side *rx_side_of(enum rx_mode rx)
{
	return (unsigned int)rx < RX_MODE_COUNT ? rx_sides[rx] : &rx_side_copy;
}

/* Every receive path starts at it: the receiver's own queue. */
static const char rx_queue_stage[] = "kernel: the receiver's TCP queue";

int rx_side_path(const struct strategy_ops *sender, enum rx_mode rx,
		 struct strategy_step path[STRATEGY_STEPS_MAX], int *queue)
{
	const struct rx_side *side = rx_side_of(rx);
	const struct strategy_step *rx_path = side->path  ? side->path(sender)
					      : side->ops ? side->ops->path
							  : NULL;
	int n = 0;

	while (n < STRATEGY_STEPS_MAX && sender->path[n].stage) {
		path[n] = sender->path[n];
		n++;
	}
	if (queue)
		*queue = n;
	for (int i = 0; queue && i < n; i++)
		if (strncmp(path[i].stage, rx_queue_stage,
			    strlen(rx_queue_stage)) == 0) {
			*queue = i;
			break;
		}
	/* From the receiver's queue on, the receive side's own steps. */
	for (int i = 0; rx_path && i < n; i++) {
		if (strncmp(path[i].stage, rx_queue_stage,
			    strlen(rx_queue_stage)) != 0)
			continue;
		path[i].move = rx_path[0].move;
		path[i].copy = rx_path[0].copy;
		path[i].roles = rx_path[0].roles;
		n = i + 1;
		for (int j = 1; n < STRATEGY_STEPS_MAX && rx_path[j].stage; j++)
			path[n++] = rx_path[j];
		break;
	}
	return n;
}

bool rx_side_say(enum rx_mode rx, const struct strategy_ops *sender,
		 const uint64_t counter[RX_COUNTERS_MAX], bool why, char *out,
		 size_t size)
{
	const struct rx_side *side = rx_side_of(rx);
	struct rx_side_said in = {
		.sender = sender, .counter = counter, .why = why};

	out[0] = '\0';
	return side->said && side->said(&in, out, size);
}

const struct strategy_ops *strategy_rx_ops(enum rx_mode rx)
{
	return rx_side_of(rx)->ops;
}

const char *strategy_rx_refusal(const struct run_settings *s)
{
	const struct rx_side *side = rx_side_of(s->rx);

	return side->refusal ? side->refusal(s) : NULL;
}

const struct strategy_ops *strategy_receiver(const struct strategy_ops *ops,
					     const struct run_settings *s)
{
	const struct strategy_ops *rx = strategy_rx_ops(s->rx);

	return rx ? rx : ops;
}

void strategy_step_text(const char *text, unsigned int fields, char *out,
			size_t size)
{
	static const char plural[] = " message fields";
	const char *at = strstr(text, "{fields}");
	const char *rest;

	if (!at) {
		snprintf(out, size, "%s", text);
		return;
	}
	rest = at + strlen("{fields}");
	/* "1 message field", not "1 message fields". */
	if (fields == 1 && strncmp(rest, plural, strlen(plural)) == 0)
		snprintf(out, size, "%.*s1 message field%s", (int)(at - text),
			 text, rest + strlen(plural));
	else
		snprintf(out, size, "%.*s%u%s", (int)(at - text), text, fields,
			 rest);
}

size_t strategy_count(void)
{
	return sizeof(strategies) / sizeof(strategies[0]);
}

const struct strategy_ops *strategy_at(size_t index)
{
	return index < strategy_count() ? strategies[index] : NULL;
}

const struct strategy_ops *strategy_find(const char *name)
{
	for (size_t i = 0; i < strategy_count(); i++) {
		if (strcmp(strategies[i]->name, name) == 0)
			return strategies[i];
	}
	return NULL;
}

size_t strategy_index(const struct strategy_ops *ops)
{
	for (size_t i = 0; i < strategy_count(); i++)
		if (strategies[i] == ops)
			return i;
	return 0;
}

int strategy_probe(const struct strategy_ops *ops, char **cause)
{
	*cause = NULL;
	return ops->probe ? ops->probe(cause) : 0;
}

size_t strategy_memory(const struct strategy_ops *ops,
		       const struct strategy_params *params, bool sender)
{
	const struct strategy_ops *rx = strategy_receiver(ops,
							  params->settings);
	size_t (*memory)(
		const struct strategy_params *) = sender ? ops->tx_memory
							 : rx->rx_memory;

	return memory ? memory(params) : params->msg_size;
}

size_t strategy_unread_least(const struct strategy_ops *ops,
			     const struct strategy_params *params)
{
	if (!ops->local_receiver || params->settings->unsafe_reuse)
		return 0;
	return slot_pool_unread_least(params);
}

unsigned int strategy_slots(const struct run_settings *settings,
			    size_t msg_size)
{
	int wmem_max;
	size_t slots;

	if (settings->slots)
		return settings->slots;
	wmem_max = sysfile_int_at("/proc/sys/net/ipv4/tcp_wmem", 2, 4 << 20);
	slots = (size_t)(wmem_max > 0 ? wmem_max : 4 << 20) / msg_size + 1;
	if (slots < STRATEGY_SLOTS_MIN)
		slots = STRATEGY_SLOTS_MIN;
	return slots > STRATEGY_SLOTS_MAX ? STRATEGY_SLOTS_MAX
					  : (unsigned int)slots;
}
