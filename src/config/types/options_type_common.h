/*
 * What the families of option types share, and nothing but they and the
 * table of types include: the pieces several types are made of
 * (options_type_common.c) and each type's struct, which its family's file
 * defines and option_types[] (options_types.c) lists.  Every function here
 * reads one row; errors name the option (label) or the place in a file
 * (where) and the value, and say the rule.
 */
#ifndef NIO_TOP_OPTIONS_TYPE_COMMON_H
#define NIO_TOP_OPTIONS_TYPE_COMMON_H

#include "options_private.h"

/* The row's range as text: "1 .. 64" (to is " .. ") or "1 to 64". */
void options_range(const struct option_row *row, const char *to, char *out,
		   size_t size);
/* A JSON number within the row's range, whole if integer, into *out. */
int options_json_number(const struct option_row *row, const cJSON *v,
			const char *where, bool integer, double *out,
			char **cause);
/* JSON text read as the command line reads the row, its error wrapped. */
int options_json_via_text(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause);

/* Fragments of JSON Schema: a number's range, a pattern, a list, either. */
cJSON *options_schema_range(const char *type, double min, double max);
cJSON *options_schema_pattern(const char *pattern);
cJSON *options_schema_array(cJSON *items, double least, double most);
cJSON *options_schema_one_of(cJSON *a, cJSON *b);

/* A scalar in a preset, where the row says, read and written as a run's. */
int options_scalar_from_json(struct options *o, const struct option_row *row,
			     const cJSON *v, const char *where, char **cause);
cJSON *options_scalar_to_json(const struct options *o,
			      const struct option_row *row);

/*
 * Lists: a comma list split into at most most items (in *copy, which the
 * caller frees); a list from text or JSON, each item read by the row's
 * type's item_from_text or item_from_json, and its count stored; a JSON
 * list's items into items (*n of them); the list as JSON and its schema.
 */
int options_list_split(const char *label, const char *text, char **copy,
		       char *items[], size_t *count, size_t most, char **cause);
int options_list_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause);
int options_list_items(const struct option_row *row, const cJSON *v,
		       const char *where, void *items, bool viewing, size_t *n,
		       char **cause);
int options_list_from_json(struct options *o, const struct option_row *row,
			   const cJSON *v, const char *where, char **cause);
cJSON *options_list_to_json(const struct options *o,
			    const struct option_row *row);
cJSON *options_list_schema(const struct option_row *row);

/* The types, by family: options_type_numbers.c. */
extern const struct option_type_ops option_type_flag;
extern const struct option_type_ops option_type_bool;
extern const struct option_type_ops option_type_uint;
extern const struct option_type_ops option_type_seconds;
extern const struct option_type_ops option_type_number;
extern const struct option_type_ops option_type_rate;
extern const struct option_type_ops option_type_bytes;
extern const struct option_type_ops option_type_sizes;
extern const struct option_type_ops option_type_counts;

/* options_type_choices.c */
extern const struct option_type_ops option_type_strategies;
extern const struct option_type_ops option_type_events;
extern const struct option_type_ops option_type_choice;
extern const struct option_type_ops option_type_choices;

/* options_type_names.c */
extern const struct option_type_ops option_type_name;
extern const struct option_type_ops option_type_text;
extern const struct option_type_ops option_type_path;
extern const struct option_type_ops option_type_preset;

/* options_type_network.c */
extern const struct option_type_ops option_type_cpus;
extern const struct option_type_ops option_type_subnet;

/* options_probe.c */
extern const struct option_type_ops option_type_probe;

#endif
