/*
 * The strategy registry: the one list of send/receive paths nio-top knows, in
 * the order the CLI, the export and the UI show them.
 */
#include <stdio.h>
#include <string.h>

#include "strategy.h"

static const struct strategy_ops *const strategies[] = {
	&strategy_two_copy, &strategy_one_copy, &strategy_zero_copy,
	&strategy_uring,    &strategy_uring_zc,
};

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
	size_t (*memory)(
		const struct strategy_params *) = sender ? ops->tx_memory
							 : ops->rx_memory;

	return memory ? memory(params) : params->msg_size;
}
