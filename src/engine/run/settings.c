/*
 * A run's settings (settings.h): the names of their choices, as the option
 * table, the export and every list say them, and the stack's knobs as a
 * label's tail.  The receive sides' names are their rows' (registry.c).
 */
#include <stdio.h>

#include "settings.h"

const char *const gro_mode_names[] = {
	[GRO_DEFAULT] = "as-built",
	[GRO_ON] = "on",
	[GRO_OFF] = "off",
	NULL,
};

const char *const nodelay_names[] = {
	[NODELAY_RR] = "rr",
	[NODELAY_ON] = "on",
	[NODELAY_OFF] = "off",
	NULL,
};

void settings_stack_tag(const struct settings_stack *k, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	if (k->gso_max_size && len < size)
		len += (size_t)snprintf(out + len, size - len, " gso %u",
					k->gso_max_size);
	if (k->gro_max_size && len < size)
		len += (size_t)snprintf(out + len, size - len, " gro-size %u",
					k->gro_max_size);
	if (k->gro != GRO_DEFAULT && len < size)
		len += (size_t)snprintf(out + len, size - len, " GRO %s",
					gro_mode_names[k->gro]);
	if (k->busy_poll && len < size)
		len += (size_t)snprintf(out + len, size - len,
					" busy-poll %uus", k->busy_poll);
	if (k->load_rate_mbps && len < size)
		snprintf(out + len, size - len, " paced %uM",
			 k->load_rate_mbps);
}
