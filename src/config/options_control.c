/*
 * The explorer's controls are rows of the option table: a run setting with
 * a struct option_control.  Here they are found, stepped, toggled and said
 * through the operations of their type, so no other file names one; and a
 * run's settings go back into options (one value each) for the explorer's
 * presets and what it remembers between starts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options_private.h"

size_t options_control_count(void)
{
	size_t n = 0;

	for (size_t i = 0; i < option_row_count; i++)
		n += option_rows[i].control != NULL;
	return n;
}

const struct option_row *options_control_at(size_t index)
{
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].control && index-- == 0)
			return &option_rows[i];
	return NULL;
}

static double position_of(const struct option_row *row, const void *value)
{
	const struct option_type_ops *type = options_type_of(row);

	return type->position ? type->position(row, value)
			      : type->number->get(value);
}

static void set_position(const struct option_row *row, void *value,
			 double position)
{
	const struct option_type_ops *type = options_type_of(row);

	if (type->set_position)
		type->set_position(row, value, position);
	else
		type->number->set(value, position);
}

void options_control_text(const struct option_row *row,
			  const struct run_config *c, char *out, size_t size)
{
	const struct option_type_ops *type = options_type_of(row);
	const void *value = options_at(c, row->run_offset);
	double v = position_of(row, value);

	if (v == 0 && row->control->zero) {
		snprintf(out, size, "%s", row->control->zero);
		return;
	}
	if (type->text)
		type->text(row, value, out, size);
	else
		snprintf(out, size, "%g%s", v,
			 type->number->unit ? type->number->unit : "");
	/* A number says what it counts: "10 us", not "10". */
	if (row->control->unit && strlen(out) + 1 < size)
		strncat(out, row->control->unit, size - strlen(out) - 1);
}

/*
 * The position delta steps from v: the next (or previous) of the control's
 * steps, counting a value between two as the gap between them; else the
 * next whole value of the row's range.  Numbers stop at the ends.
 */
static double step_number(const struct option_row *row, double v, int delta)
{
	const struct option_control *ctl = row->control;
	long i, n = (long)ctl->step_count;

	if (!ctl->steps) {
		v = floor(v) + delta;
		return fmin(fmax(v, row->min), row->max);
	}
	for (i = 0; i < n && ctl->steps[i] < v; i++)
		;
	/* Between steps[i - 1] and steps[i]: the first step up is steps[i]. */
	if ((i == n || ctl->steps[i] != v) && delta > 0)
		delta--;
	i += delta;
	return ctl->steps[i < 0 ? 0 : i >= n ? n - 1 : i];
}

bool options_control_step(
	const struct option_row *row, struct run_config *c, int delta,
	bool (*allowed)(const struct run_config *c, void *arg), void *arg)
{
	const struct option_type_ops *type = options_type_of(row);
	void *value = options_at(c, row->run_offset);
	struct run_config before = *c;
	long n = type->positions ? (long)type->positions(row) : 0;
	long at = (long)position_of(row, value);
	int way = delta < 0 ? -1 : 1;

	if (!n) {
		set_position(row, value, step_number(row, at, delta));
		return memcmp(&before, c, sizeof(before)) != 0;
	}
	/* Names go round, stepping over those not allowed. */
	for (int moved = 0; moved != delta;) {
		long k;

		for (k = 0; k < n; k++) {
			at = (at + way + n) % n;
			set_position(row, value, (double)at);
			if (!allowed || allowed(c, arg))
				break;
		}
		if (k == n) { /* none is */
			*c = before;
			return false;
		}
		moved += way;
	}
	return memcmp(&before, c, sizeof(before)) != 0;
}

bool options_control_toggle(const struct option_row *row, struct run_config *c,
			    double *back)
{
	void *value = options_at(c, row->run_offset);
	double now = position_of(row, value);

	if (!row->control->toggle)
		return false;
	set_position(row, value,
		     now     ? 0
		     : *back ? *back
			     : row->control->toggle);
	if (now)
		*back = now;
	return true;
}

/* The size of a run's one value of row. */
static size_t value_size(const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);

	if (row->size)
		return row->size;
	if (type->value_size)
		return type->value_size;
	return type->number ? type->number->size : type->item_size;
}

bool options_run_same(const struct option_row *row, const struct run_config *a,
		      const struct run_config *b)
{
	return memcmp(options_at(a, row->run_offset),
		      options_at(b, row->run_offset), value_size(row)) == 0;
}

void options_from_run(struct options *o, const struct run_config *c,
		      const bool *controls)
{
	for (size_t i = 0, k = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (!(row->flags & OPTION_RUN))
			continue;
		/* k: the index of the control the row is, if one. */
		if (controls && (!row->control || !controls[k++]))
			continue;
		memcpy(options_at(o, row->offset),
		       options_at(c, row->run_offset), value_size(row));
		if (row->count_offset)
			*(size_t *)options_at(o, row->count_offset) = 1;
		o->given[i] = true;
	}
}

cJSON *options_controls_to_json(const struct run_config *c)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; obj && i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (row->control)
			cJSON_AddItemToObject(
				obj, row->run_key,
				options_type_of(row)->value_to_json(
					row, options_at(c, row->run_offset)));
	}
	return obj;
}

void options_controls_from_json(const cJSON *from, struct run_config *c,
				bool read[OPTIONS_MAX])
{
	for (size_t k = 0; k < options_control_count(); k++) {
		const struct option_row *row = options_control_at(k);
		/* Settings an older nio-top kept: its names too. */
		const cJSON *v = options_run_item(from, row, true);
		char *cause = NULL;

		/* A value that no longer fits is left out, said nowhere. */
		read[k] = v &&
			  options_type_of(row)->value_from_json(
				  row, v, row->run_key, false,
				  options_at(c, row->run_offset), &cause) == 0;
		free(cause);
	}
}
