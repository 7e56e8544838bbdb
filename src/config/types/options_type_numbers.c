/*
 * The types of numbers: flags and booleans, whole numbers, seconds, real
 * numbers, rates, byte counts, lists of whole numbers and message sizes.  A
 * number is read from text or JSON within the row's range and stored as its
 * kind says (struct option_number); a rate, a byte count and a message size
 * are also read as text with a unit ("1G", "4M", "16K").
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "options_type_common.h"
#include "units.h"

/* OPTION_FLAG and OPTION_BOOL: given is true. */

static int flag_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	(void)label;
	(void)text;
	(void)cause;
	*(bool *)options_at(o, row->offset) = true;
	return 0;
}

static int bool_from_json(const struct option_row *row, const cJSON *v,
			  const char *where, bool viewing, void *value,
			  char **cause)
{
	(void)row;
	(void)viewing;
	if (!cJSON_IsBool(v))
		return cause_set(cause, -EINVAL, "%s: must be true or false",
				 where);
	*(bool *)value = cJSON_IsTrue(v);
	return 0;
}

static cJSON *bool_to_json(const struct option_row *row, const void *value)
{
	(void)row;
	return cJSON_CreateBool(*(const bool *)value);
}

static cJSON *bool_schema(const struct option_row *row)
{
	cJSON *s = cJSON_CreateObject();

	(void)row;
	cJSON_AddStringToObject(s, "type", "boolean");
	return s;
}

static void bool_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out, ".Cm true No or Cm false .\n");
}

const struct option_type_ops option_type_flag = {
	.from_text = flag_from_text,
};

const struct option_type_ops option_type_bool = {
	.from_text = flag_from_text,
	.from_json = options_scalar_from_json,
	.to_json = options_scalar_to_json,
	.schema = bool_schema,
	.describe = bool_describe,
	.value_from_json = bool_from_json,
	.value_to_json = bool_to_json,
	.value_size = sizeof(bool),
};

/*
 * Numbers: OPTION_UINT, OPTION_SECONDS, OPTION_NUMBER, the numeric form of
 * OPTION_RATE and each item of OPTION_COUNTS, within the row's range.  They
 * differ in how they are stored (get and set) and whether they are whole.
 */

/* --help's range of a number, or of each number of a list, if it has one. */
static void numbers_help_range(const struct option_row *row, char *out,
			       size_t size)
{
	if (row->max > 0)
		options_range(row, " .. ", out, size);
}

static double uint_get(const void *value)
{
	return *(const unsigned int *)value;
}

static void uint_set(void *value, double number)
{
	*(unsigned int *)value = (unsigned int)number;
}

/* Seconds, stored as milliseconds. */
static double ms_get(const void *value)
{
	return (double)*(const uint64_t *)value / 1000;
}

static void ms_set(void *value, double seconds)
{
	*(uint64_t *)value = (uint64_t)llround(seconds * 1000);
}

static double double_get(const void *value)
{
	return *(const double *)value;
}

static void double_set(void *value, double number)
{
	*(double *)value = number;
}

static double u64_get(const void *value)
{
	return (double)*(const uint64_t *)value;
}

static void u64_set(void *value, double number)
{
	*(uint64_t *)value = (uint64_t)number;
}

static const struct option_number whole_number = {
	.get = uint_get,
	.set = uint_set,
	.integer = true,
	.noun = "a whole number",
	.size = sizeof(unsigned int),
};

static const struct option_number seconds_number = {
	.get = ms_get,
	.set = ms_set,
	.noun = "a duration in seconds",
	.unit = " s",
	.size = sizeof(uint64_t),
};

static const struct option_number real_number = {
	.get = double_get,
	.set = double_set,
	.noun = "a number",
	.size = sizeof(double),
};

/* A byte count given as a number: its text is read as a size ("4M"). */
static const struct option_number bytes_number = {
	.get = u64_get,
	.set = u64_set,
	.integer = true,
	.noun = "a size in bytes",
	.size = sizeof(uint64_t),
};

/* A rate given as a number: its text is read as a rate ("1G"). */
static const struct option_number rate_number = {
	.get = u64_get,
	.set = u64_set,
	.integer = true,
	.size = sizeof(uint64_t),
};

/* Seconds as text: a number, or one with s, m (minutes) or h after it. */
static int seconds_from_text(const struct option_row *row, const char *text,
			     double *seconds)
{
	static const struct {
		char suffix;
		double scale;
	} units[] = {{'s', 1}, {'m', 60}, {'h', 3600}};
	size_t len = strlen(text);
	char number[64];
	int r;

	for (size_t i = 0; len > 1 && len < sizeof(number) && i < 3; i++) {
		if (text[len - 1] != units[i].suffix)
			continue;
		snprintf(number, sizeof(number), "%.*s", (int)(len - 1), text);
		r = units_parse_number(number, 0, row->max, seconds);
		*seconds *= units[i].scale;
		if (r == 0 && (*seconds < row->min || *seconds > row->max))
			r = -ERANGE;
		return r;
	}
	return units_parse_number(text, row->min, row->max, seconds);
}

/*
 * A number from text into value; a positive minimum must not be stored as
 * nothing (a duration rounded down to 0 ms).
 */
static int number_from_item_text(const struct option_row *row, void *value,
				 const char *label, const char *text,
				 bool viewing, char **cause)
{
	const struct option_number *kind = options_type_of(row)->number;
	unsigned long whole = 0;
	double number;
	char range[64];
	int r;

	(void)viewing;
	if (kind->integer) {
		r = units_parse_uint(text, (unsigned long)row->min,
				     (unsigned long)row->max, &whole);
		number = (double)whole;
	} else if (kind == &seconds_number) {
		r = seconds_from_text(row, text, &number);
	} else {
		r = units_parse_number(text, row->min, row->max, &number);
	}
	if (r == 0)
		kind->set(value, number);
	if (r == 0 && !(row->min > 0 && kind->get(value) == 0))
		return 0;
	options_range(row, " .. ", range, sizeof(range));
	return cause_set(cause, -EINVAL, "%s: '%s' is not %s %s", label, text,
			 kind->noun, range);
}

static int number_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	return number_from_item_text(row, options_at(o, row->offset), label,
				     text, o->viewing_only, cause);
}

static int number_from_json(const struct option_row *row, const cJSON *v,
			    const char *where, bool viewing, void *value,
			    char **cause)
{
	const struct option_number *kind = options_type_of(row)->number;
	double number;
	int r = options_json_number(row, v, where, kind->integer, &number,
				    cause);

	(void)viewing;
	if (r < 0)
		return r;
	kind->set(value, number);
	if (row->min > 0 && kind->get(value) == 0)
		return cause_set(cause, -EINVAL, "%s: must be at least %g",
				 where, row->min);
	return 0;
}

static int number_from_item_json(const struct option_row *row, void *item,
				 const cJSON *v, const char *list_where,
				 const char *where, bool viewing, char **cause)
{
	(void)list_where;
	return number_from_json(row, v, where, viewing, item, cause);
}

static cJSON *number_to_json(const struct option_row *row, const void *value)
{
	return cJSON_CreateNumber(options_type_of(row)->number->get(value));
}

static bool number_empty(const struct option_row *row, const void *value)
{
	return options_type_of(row)->number->get(value) == 0;
}

static cJSON *number_schema(const struct option_row *row)
{
	return options_schema_range(
		options_type_of(row)->number->integer ? "integer" : "number",
		row->min, row->max);
}

static void number_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	options_range(row, " to ", range, sizeof(range));
	fprintf(out, "%s %s.\n", options_type_of(row)->words, range);
}

/* OPTION_UINT: a whole number (unsigned int), and nothing more. */
const struct option_type_ops option_type_uint = {
	.from_text = number_from_text,
	.from_json = options_scalar_from_json,
	.to_json = options_scalar_to_json,
	.empty = number_empty,
	.schema = number_schema,
	.describe = number_describe,
	.help_range = numbers_help_range,
	.value_from_json = number_from_json,
	.value_to_json = number_to_json,
	.number = &whole_number,
	.words = "An integer,",
};

/* OPTION_NUMBER: a real number (double), and nothing more. */
const struct option_type_ops option_type_number = {
	.from_text = number_from_text,
	.from_json = options_scalar_from_json,
	.to_json = options_scalar_to_json,
	.empty = number_empty,
	.schema = number_schema,
	.describe = number_describe,
	.help_range = numbers_help_range,
	.value_from_json = number_from_json,
	.value_to_json = number_to_json,
	.number = &real_number,
	.words = "A number,",
};

/*
 * OPTION_COUNTS: whole numbers (unsigned int[]) and their count; a run
 * holds one.
 */
const struct option_type_ops option_type_counts = {
	.from_text = options_list_from_text,
	.from_json = options_list_from_json,
	.to_json = options_list_to_json,
	.schema = options_list_schema,
	.describe = number_describe,
	.help_range = numbers_help_range,
	.value_from_json = number_from_json,
	.value_to_json = number_to_json,
	.number = &whole_number,
	.words = "A list of integers, each",
	.item_from_text = number_from_item_text,
	.item_from_json = number_from_item_json,
	.item_to_json = number_to_json,
	.item_schema = number_schema,
	.least = 1,
	.most = OPTIONS_LIST_MAX,
	.item_size = sizeof(unsigned int),
};

/*
 * Seconds whose row reads 0 as a word (the duration: "continuous").  A file
 * says the word, and reads it -- or 0, as files written before said it --
 * as no duration of its own: the explorer runs until a control changes and
 * --batch takes its default or -d.  A run's own settings (the wire, each
 * run of an export) say 0: until stopped.
 */
static const char *seconds_zero_word(const struct option_row *row)
{
	return row->control ? row->control->zero : NULL;
}

static bool seconds_zero_from_json(const struct option_row *row, const cJSON *v)
{
	const char *word = seconds_zero_word(row);

	if (cJSON_IsNumber(v) && v->valuedouble == 0)
		return word || row->min == 0;
	return word && cJSON_IsString(v) && strcmp(v->valuestring, word) == 0;
}

/* A preset's: its word is no value of its own (the key is not given). */
static int seconds_from_json(struct options *o, const struct option_row *row,
			     const cJSON *v, const char *where, char **cause)
{
	if (seconds_zero_word(row) && seconds_zero_from_json(row, v))
		return OPTION_NOT_GIVEN;
	return number_from_json(row, v, where, o->viewing_only,
				options_at(o, row->offset), cause);
}

/* A run's: 0 means until stopped (a paced or endless run). */
static int seconds_value_from_json(const struct option_row *row, const cJSON *v,
				   const char *where, bool viewing, void *value,
				   char **cause)
{
	if (cJSON_IsNumber(v) && v->valuedouble == 0) {
		ms_set(value, 0);
		return 0;
	}
	if (seconds_zero_from_json(row, v)) {
		ms_set(value, 0);
		return 0;
	}
	return number_from_json(row, v, where, viewing, value, cause);
}

/* A preset's: 0 is said by the word. */
static cJSON *seconds_to_json(const struct options *o,
			      const struct option_row *row)
{
	if (ms_get(options_at(o, row->offset)) == 0 && seconds_zero_word(row))
		return cJSON_CreateString(seconds_zero_word(row));
	return options_scalar_to_json(o, row);
}

static cJSON *seconds_schema(const struct option_row *row)
{
	const char *word = seconds_zero_word(row);
	cJSON *zero, *any;

	if (!word)
		return number_schema(row);
	zero = cJSON_CreateObject();
	any = cJSON_AddArrayToObject(zero, "enum");
	cJSON_AddItemToArray(any, cJSON_CreateString(word));
	cJSON_AddItemToArray(any, cJSON_CreateNumber(0));
	return options_schema_one_of(number_schema(row), zero);
}

static void seconds_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	options_range(row, " to ", range, sizeof(range));
	if (!seconds_zero_word(row)) {
		fprintf(out, "%s %s.\n", options_type_of(row)->words, range);
		return;
	}
	fprintf(out,
		"%s %s, or\n.Li \"%s\"\n(0 reads the same): no duration of "
		"its own, as when the key is left out.\n",
		options_type_of(row)->words, range, seconds_zero_word(row));
}

/* OPTION_SECONDS: milliseconds (uint64_t), given in seconds. */
const struct option_type_ops option_type_seconds = {
	.from_text = number_from_text,
	.from_json = seconds_from_json,
	.to_json = seconds_to_json,
	.schema = seconds_schema,
	.describe = seconds_describe,
	.help_range = numbers_help_range,
	.value_from_json = seconds_value_from_json,
	.value_to_json = number_to_json,
	.number = &seconds_number,
	.words = "A number of seconds,",
};

/* OPTION_RATE: bit/s (uint64_t), "1G" or a number. */

static int rate_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	char lo[32], hi[32];

	if (units_parse_rate(text, (uint64_t)row->min, (uint64_t)row->max,
			     options_at(o, row->offset)) == 0)
		return 0;
	units_format_rate((uint64_t)row->min, lo, sizeof(lo));
	units_format_rate((uint64_t)row->max, hi, sizeof(hi));
	return cause_set(cause, -EINVAL,
			 "%s: '%s' is not a rate (bit/s with K, M or G, "
			 "%s .. %s)",
			 label, text, lo, hi);
}

static int rate_from_json(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause)
{
	if (cJSON_IsString(v))
		return options_json_via_text(o, row, v, where, cause);
	return options_scalar_from_json(o, row, v, where, cause);
}

static cJSON *rate_schema(const struct option_row *row)
{
	return options_schema_one_of(
		options_schema_range("integer", row->min, row->max),
		options_schema_pattern("^[0-9.]+[KkMmGg]?$"));
}

static void rate_describe(FILE *out, const struct option_row *row)
{
	char lo[32], hi[32];

	units_format_rate((uint64_t)row->min, lo, sizeof(lo));
	units_format_rate((uint64_t)row->max, hi, sizeof(hi));
	fprintf(out,
		"Bits per second, %s to %s: a number, or text such as\n"
		".Qq 1G .\n",
		lo, hi);
}

const struct option_type_ops option_type_rate = {
	.from_text = rate_from_text,
	.from_json = rate_from_json,
	.to_json = options_scalar_to_json,
	.empty = number_empty,
	.schema = rate_schema,
	.describe = rate_describe,
	.value_from_json = number_from_json,
	.value_to_json = number_to_json,
	.number = &rate_number,
};

/*
 * OPTION_BYTES: a byte count (uint64_t), "2G" or a number, up to the row's
 * maximum where it has one.
 */

static int bytes_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause)
{
	uint64_t bytes = 0;
	char most[32] = "";

	if (row->max > 0)
		units_format_bytes((uint64_t)row->max, most, sizeof(most));
	if (units_parse_bytes(text, &bytes) < 0 ||
	    (row->max > 0 && (double)bytes > row->max))
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a size (bytes, "
				 "or a number with K, M, G or T; "
				 "more than 0%s%s)",
				 label, text, most[0] ? ", at most " : "",
				 most);
	*(uint64_t *)options_at(o, row->offset) = bytes;
	return 0;
}

static int bytes_from_json(struct options *o, const struct option_row *row,
			   const cJSON *v, const char *where, char **cause)
{
	if (cJSON_IsString(v))
		return options_json_via_text(o, row, v, where, cause);
	return options_scalar_from_json(o, row, v, where, cause);
}

static cJSON *bytes_schema(const struct option_row *row)
{
	return options_schema_one_of(
		options_schema_range("integer", row->min, row->max),
		options_schema_pattern("^[0-9.]+[KkMmGgTt]?$"));
}

static void bytes_describe(FILE *out, const struct option_row *row)
{
	char most[32];

	units_format_bytes((uint64_t)row->max, most, sizeof(most));
	fprintf(out,
		"Bytes, up to %s: a number, or text such as\n"
		".Qq 4M ;\n"
		"0 leaves the kernel's own.\n",
		most);
}

const struct option_type_ops option_type_bytes = {
	.from_text = bytes_from_text,
	.from_json = bytes_from_json,
	.to_json = options_scalar_to_json,
	.empty = number_empty,
	.schema = bytes_schema,
	.describe = bytes_describe,
	.value_from_json = number_from_json,
	.value_to_json = number_to_json,
	.number = &bytes_number,
};

/* OPTION_SIZES: message sizes (size_t[]), "16K" or a number each. */

/* A range of message sizes as the command line spells them: "64 .. 4M". */
static void sizes_range(const struct option_row *row, const char *to, char *out,
			size_t size)
{
	char lo[32], hi[32];

	units_format_size((size_t)row->min, lo, sizeof(lo));
	units_format_size((size_t)row->max, hi, sizeof(hi));
	snprintf(out, size, "%s%s%s", lo, to, hi);
}

static void sizes_help_range(const struct option_row *row, char *out,
			     size_t size)
{
	sizes_range(row, " .. ", out, size);
}

static int size_from_text(const struct option_row *row, void *item,
			  const char *label, const char *text, bool viewing,
			  char **cause)
{
	int r = units_parse_size(text, item);

	(void)row;
	(void)viewing;
	if (r == -EINVAL)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a size "
				 "(bytes, or a number with K "
				 "or M)",
				 label, text);
	if (r < 0)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is out of range (64 "
				 ".. 4M)",
				 label, text);
	return 0;
}

/*
 * "MIN..MAX": MIN, the powers of two between (none within 1.4x of an end),
 * and MAX -- a grid in doubling steps, and the range --crossover searches.
 */
static int sizes_range_from_text(struct options *o,
				 const struct option_row *row,
				 const char *label, const char *text,
				 const char *dots, char **cause)
{
	size_t *list = options_at(o, row->offset), lo, hi, n = 0;
	char first[32];
	int r;

	snprintf(first, sizeof(first), "%.*s", (int)(dots - text), text);
	r = size_from_text(row, &lo, label, first, false, cause);
	if (r == 0)
		r = size_from_text(row, &hi, label, dots + 2, false, cause);
	if (r < 0)
		return r;
	if (lo >= hi)
		return cause_set(cause, -EINVAL,
				 "%s: '%s': a range's first size must be "
				 "below its last",
				 label, text);
	list[n++] = lo;
	for (size_t p = 64; p < hi && n < OPTIONS_LIST_MAX - 1; p *= 2)
		if ((double)p > 1.4 * (double)lo &&
		    1.4 * (double)p < (double)hi)
			list[n++] = p;
	list[n++] = hi;
	*(size_t *)options_at(o, row->count_offset) = n;
	return 0;
}

/* A list of sizes ("4K,16K"), or a range of them ("1K..1M"). */
static int sizes_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause)
{
	const char *dots = strstr(text, "..");

	if (dots && !strchr(text, ','))
		return sizes_range_from_text(o, row, label, text, dots, cause);
	return options_list_from_text(o, row, label, text, cause);
}

static int size_item_from_json(const struct option_row *row, void *item,
			       const cJSON *v, const char *list_where,
			       const char *where, bool viewing, char **cause)
{
	char label[48];
	double d;
	int r;

	(void)list_where;
	(void)viewing;
	if (!cJSON_IsString(v)) {
		r = options_json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(size_t *)item = (size_t)d;
		return r;
	}
	r = units_parse_size(v->valuestring, item);
	if (r == -EINVAL)
		return cause_set(cause, -EINVAL,
				 "%s: %s: '%s' is not a size (bytes, "
				 "or a number with K or M)",
				 where,
				 options_row_label(row, label, sizeof(label)),
				 v->valuestring);
	if (r < 0)
		return cause_set(cause, -EINVAL,
				 "%s: must be 64 .. 4194304 bytes "
				 "(not %s)",
				 where, v->valuestring);
	return 0;
}

static cJSON *size_item_to_json(const struct option_row *row, const void *item)
{
	(void)row;
	return cJSON_CreateNumber((double)*(const size_t *)item);
}

/* A run holds one size, in bytes, written exactly. */
static int size_value_from_json(const struct option_row *row, const cJSON *v,
				const char *where, bool viewing, void *value,
				char **cause)
{
	double d;
	int r;

	(void)viewing;
	if (!cJSON_IsNumber(v))
		return cause_set(cause, -EINVAL,
				 "%s: must be a non-negative integer", where);
	r = options_json_number(row, v, where, true, &d, cause);
	if (r == 0)
		*(size_t *)value = (size_t)d;
	return r;
}

static cJSON *size_value_to_json(const struct option_row *row,
				 const void *value)
{
	(void)row;
	return jsonfile_u64_item(*(const size_t *)value);
}

static double size_position(const struct option_row *row, const void *value)
{
	(void)row;
	return (double)*(const size_t *)value;
}

static void size_set_position(const struct option_row *row, void *value,
			      double position)
{
	(void)row;
	*(size_t *)value = (size_t)position;
}

static void size_text(const struct option_row *row, const void *value,
		      char *out, size_t size)
{
	(void)row;
	units_format_size_iec(*(const size_t *)value, out, size);
}

static cJSON *size_schema(const struct option_row *row)
{
	return options_schema_one_of(
		options_schema_range("integer", row->min, row->max),
		options_schema_pattern("^[0-9]+[KkMm]?$"));
}

static void sizes_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	sizes_range(row, " to ", range, sizeof(range));
	fprintf(out,
		"A list of sizes, each %s: bytes, or text such as\n"
		".Qq 16K .\n",
		range);
}

const struct option_type_ops option_type_sizes = {
	.from_text = sizes_from_text,
	.from_json = options_list_from_json,
	.to_json = options_list_to_json,
	.schema = options_list_schema,
	.describe = sizes_describe,
	.help_range = sizes_help_range,
	.value_from_json = size_value_from_json,
	.value_to_json = size_value_to_json,
	.position = size_position,
	.set_position = size_set_position,
	.text = size_text,
	.item_from_text = size_from_text,
	.item_from_json = size_item_from_json,
	.item_to_json = size_item_to_json,
	.item_schema = size_schema,
	.least = 1,
	.most = OPTIONS_LIST_MAX,
	.item_size = sizeof(size_t),
};
