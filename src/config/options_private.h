/*
 * What the files of the options share, and nothing outside them includes:
 * the operations of each type of value, one struct a type in the file of
 * its family (types/options_type_*.c) and one entry per enum option_type
 * in option_types[] (types/options_types.c), and the few helpers that
 * find a row's value.  A row says which type, where and within what
 * range; its type reads the value from text or JSON, writes it as JSON
 * and describes it, so the command line (options_cli.c) and JSON
 * (options_json.c) never ask which type a row is.
 */
#ifndef NIO_TOP_OPTIONS_PRIVATE_H
#define NIO_TOP_OPTIONS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"

/*
 * How a number is stored: the value at value as a double and back, whether
 * it is whole (JSON takes whole numbers only), and what one is called in
 * errors ("a whole number").
 */
struct option_number {
	double (*get)(const void *value);
	void (*set)(void *value, double number);
	bool integer;
	const char *noun;
	const char *unit; /* after it for people (" s"), or NULL */
	size_t size;	  /* of the value stored */
};

/*
 * What one type of value can do.  An operation a type lacks is NULL: its
 * rows are not read or written that way (a flag has no JSON, a path is not a
 * run setting).  Errors name the option (label, "--msg-size") or the place
 * in a file (where, "p.json: topology.mtu") and the value, and say the rule.
 */
struct option_type_ops {
	/* The value from command-line text (NULL for a flag) into o. */
	int (*from_text)(struct options *o, const struct option_row *row,
			 const char *label, const char *text, char **cause);
	/*
	 * The value from a preset's JSON into o.  NULL: not a preset key.
	 * OPTION_NOT_GIVEN: the file says the value has none of its own
	 * (a duration "continuous"), as if the key were left out.
	 */
	int (*from_json)(struct options *o, const struct option_row *row,
			 const cJSON *v, const char *where, char **cause);
	/* The value in o as a preset writes it. */
	cJSON *(*to_json)(const struct options *o,
			  const struct option_row *row);
	/*
	 * Whether value is unset (0, empty): a preset leaves it out unless
	 * the row has a default.  NULL: a value is always written.
	 */
	bool (*empty)(const struct option_row *row, const void *value);
	/* The value's JSON Schema; the row's help becomes its description. */
	cJSON *(*schema)(const struct option_row *row);
	/* What the value is, one sentence of mdoc for nio-top-preset(5). */
	void (*describe)(FILE *out, const struct option_row *row);
	/* The range --help shows ("1 .. 64").  NULL: none. */
	void (*help_range)(const struct option_row *row, char *out,
			   size_t size);

	/*
	 * One value at value, read from JSON or written as JSON: a scalar's,
	 * or one item of a list's, as a run holds it (its strategy, its
	 * message size).  A run's settings travel this way, and most scalars'
	 * preset values too.  NULL: not a run setting.
	 */
	int (*value_from_json)(const struct option_row *row, const cJSON *v,
			       const char *where, bool viewing, void *value,
			       char **cause);
	cJSON *(*value_to_json)(const struct option_row *row,
				const void *value);

	/*
	 * A run's one value as a control steps it: its position (a number
	 * in the row's unit, a size in bytes, the index of a strategy or a
	 * name) and back, how many positions there are when they are names
	 * (0: numbers in the row's range), and the value for people ("64
	 * KiB", "zero-copy").  NULL for numbers: their kind does it.  Then
	 * the size of the value, as the options hold one item of it.
	 */
	double (*position)(const struct option_row *row, const void *value);
	void (*set_position)(const struct option_row *row, void *value,
			     double position);
	size_t (*positions)(const struct option_row *row);
	void (*text)(const struct option_row *row, const void *value, char *out,
		     size_t size);
	size_t value_size;

	/*
	 * Numbers: how one is stored (OPTION_UINT, OPTION_SECONDS, ...), and
	 * what the manual calls it, before its range ("An integer,").
	 */
	const struct option_number *number;
	const char *words;

	/*
	 * Lists: one item from text or JSON, as a preset writes it and its
	 * schema; an item's errors that concern the whole list name the list
	 * (list_where).  Then how many items a list holds, and an item's size.
	 */
	int (*item_from_text)(const struct option_row *row, void *item,
			      const char *label, const char *text, bool viewing,
			      char **cause);
	int (*item_from_json)(const struct option_row *row, void *item,
			      const cJSON *v, const char *list_where,
			      const char *where, bool viewing, char **cause);
	cJSON *(*item_to_json)(const struct option_row *row, const void *item);
	cJSON *(*item_schema)(const struct option_row *row);
	size_t least, most;
	size_t item_size;

	/*
	 * The value names a preset (-p): the command line loads it
	 * (options_load_preset()) before the rest, which override it.  Such
	 * a type reads no value itself, as presets are read above the types.
	 */
	bool preset;
};

/* Each type's operations, indexed by enum option_type. */
extern const struct option_type_ops *const option_types[OPTION_TYPE_COUNT];

static inline const struct option_type_ops *options_type_of(
	const struct option_row *row)
{
	return option_types[row->type];
}

/* Where a row's value is, offset bytes into base. */
static inline void *options_at(const void *base, size_t offset)
{
	return (char *)base + offset;
}

static inline size_t options_row_index(const struct option_row *row)
{
	return (size_t)(row - option_rows);
}

/*
 * "--name" for messages, or the preset key of a preset-only row.  It and
 * the two below are what the types share (options_type_common.c): they
 * read one row, not the table, and the table (options.c) calls them for its
 * defaults.
 */
const char *options_row_label(const struct option_row *row, char *out,
			      size_t size);

/*
 * The value of row from command-line text (NULL for a flag), or from a
 * preset's JSON (where names it: "p.json: topology.mtu"), by its type.
 */
int options_value_from_text(struct options *o, const struct option_row *row,
			    const char *text, char **cause);
/* A from_json's answer for a value that is none of its own. */
#define OPTION_NOT_GIVEN 1

int options_value_from_json(struct options *o, const struct option_row *row,
			    const cJSON *v, const char *where, char **cause);

#endif
