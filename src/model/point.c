/*
 * The point's one key: its parts taken from a run's configuration, compared
 * and named in one place.
 */
#include <stdarg.h>
#include <stdio.h>

#include "point.h"
#include "rx_side.h"
#include "units.h"

struct point_key point_key_of(const struct run_config *c)
{
	return (struct point_key){
		.mode = c->mode,
		.strategy = c->strategy,
		.rx = c->settings.rx,
		.stack = settings_stack_of(&c->settings),
		.msg_size = c->msg_size,
		.threads = c->threads,
	};
}

bool point_key_equal(const struct point_key *a, const struct point_key *b,
		     unsigned int parts)
{
	return (!(parts & POINT_MODE) || a->mode == b->mode) &&
	       (!(parts & POINT_STRATEGY) || a->strategy == b->strategy) &&
	       (!(parts & POINT_RX) || a->rx == b->rx) &&
	       (!(parts & POINT_STACK) ||
		settings_stack_equal(&a->stack, &b->stack)) &&
	       (!(parts & POINT_SIZE) || a->msg_size == b->msg_size) &&
	       (!(parts & POINT_FLOWS) || a->threads == b->threads);
}

/* Appends to out (len long so far, within size); returns the new length. */
static size_t append(char *out, size_t size, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t append(char *out, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(out + len, size - len, fmt, ap);
	va_end(ap);
	return n < 0 ? len : len + (size_t)n;
}

void point_key_label(const struct point_key *k, unsigned int parts, char *out,
		     size_t size)
{
	char bytes[24], knobs[96];
	size_t len = 0;

	if (!size)
		return;
	out[0] = '\0';
	if (parts & POINT_STRATEGY)
		len = append(out, size, len, "%s", k->strategy->name);
	if (parts & POINT_SIZE) {
		if (parts & POINT_SIZE_IEC)
			units_format_size_iec(k->msg_size, bytes,
					      sizeof(bytes));
		else
			units_format_size(k->msg_size, bytes, sizeof(bytes));
		len = append(out, size, len, "%s%s", len ? " " : "", bytes);
	}
	if (parts & POINT_FLOWS)
		len = append(out, size, len, "%sx%u", len ? " " : "",
			     k->threads);
	if (parts & POINT_MODE)
		len = append(out, size, len, "%s%s", len ? " " : "",
			     run_mode_name(k->mode));
	/* The tag and the knobs bring their own space: "" where none. */
	if (parts & POINT_RX)
		len = append(out, size, len, "%s", rx_side_of(k->rx)->tag);
	if (parts & POINT_STACK) {
		settings_stack_tag(&k->stack, knobs, sizeof(knobs));
		append(out, size, len, "%s", knobs);
	}
}
