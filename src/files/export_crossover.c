/*
 * The crossover search in the export: its question, state and counts
 * (crossover_record), its brackets and sizes as they stood, every run it
 * asked for in order, and the line a user quotes.  --load reads the head
 * and the runs back, works the sizes and brackets out again from the
 * loaded runs as the search did, and refuses a file whose sizes' runs or
 * figures do not follow from them, or whose brackets lie elsewhere than
 * between sizes tried with their leads; the leads are the file's, the
 * line is said again.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "codec.h"
#include "crossover_run.h"
#include "export.h"

cJSON *export_search(const struct crossover *x)
{
	cJSON *obj = codec_object(&crossover_record, x);
	char line[CROSSOVER_TEXT_MAX];

	if (!obj)
		return NULL;
	cJSON_AddItemToObject(obj, "brackets",
			      codec_list(&crossover_bracket_record, x->bracket,
					 sizeof(x->bracket[0]),
					 x->bracket_count));
	cJSON_AddItemToObject(obj, "sizes",
			      codec_list(&crossover_size_record, x->size,
					 sizeof(x->size[0]), x->size_count));
	cJSON_AddItemToObject(obj, "runs",
			      codec_list(&crossover_run_record, x->run,
					 sizeof(x->run[0]), x->run_count));
	crossover_line(x, line, sizeof(line));
	cJSON_AddStringToObject(obj, "text", line);
	return obj;
}

/* The file's list key of count records, each as rec reads it, into objs. */
static int load_list(const cJSON *obj, const char *key, const char *path,
		     const struct record *rec, void *objs, size_t stride,
		     size_t most, size_t *count, char **cause)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, key);
	char where[600];

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (!cJSON_IsArray(list))
		return cause_set(cause, -EINVAL, "%s: must be a list", where);
	*count = (size_t)cJSON_GetArraySize(list);
	if (*count > most)
		return cause_set(cause, -EINVAL, "%s: more than %zu", where,
				 most);
	return codec_read_list(rec, list, objs, stride, *count, where,
			       CODEC_FILE, cause);
}

/*
 * Whether two figures are one, but for the last digits a file's intervals
 * lose (both unknown is one too).
 */
static bool same_figure(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Whether bracket b lies between two sizes of x with its leads. */
static bool bracket_tried(const struct crossover *x,
			  const struct crossover_bracket *b)
{
	const struct crossover_size *below = crossover_size_of(x, b->below);
	const struct crossover_size *above = crossover_size_of(x, b->above);

	return below && above && b->below < b->above &&
	       below->lead == b->lead_below && above->lead == b->lead_above &&
	       b->lead_below != b->lead_above &&
	       (b->lead_below == LEAD_A || b->lead_below == LEAD_B) &&
	       (b->lead_above == LEAD_A || b->lead_above == LEAD_B);
}

/*
 * Whether the file's sizes (read into file) are those its runs make (x):
 * the same sizes, runs and figures, the figures kept the file's digit for
 * digit.  Their leads and the brackets between them are the file's, as
 * the search judged them when it ran (a later nio-top's rules may judge
 * otherwise), each bracket between two sizes tried with its leads.
 */
static int load_follows(struct crossover *x, const struct crossover *file,
			const char *path, char **cause)
{
	if (file->size_count != x->size_count)
		return cause_set(cause, -EINVAL,
				 "%s.sizes: %zu sizes, but its runs were at "
				 "%zu",
				 path, file->size_count, x->size_count);
	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *a = &file->size[i];
		struct crossover_size *b = &x->size[i];

		if (a->msg_size != b->msg_size || a->runs[0] != b->runs[0] ||
		    a->runs[1] != b->runs[1] || a->failed != b->failed ||
		    !same_figure(a->difference.ratio, b->difference.ratio) ||
		    !same_figure(a->difference.low, b->difference.low) ||
		    !same_figure(a->difference.high, b->difference.high) ||
		    !same_figure(a->median[0], b->median[0]) ||
		    !same_figure(a->median[1], b->median[1]))
			return cause_set(cause, -EINVAL,
					 "%s.sizes[%zu]: does not follow from "
					 "its runs",
					 path, i);
		b->difference.ratio = a->difference.ratio;
		b->difference.low = a->difference.low;
		b->difference.high = a->difference.high;
		/* A median of two runs' figures, each a file's digits short. */
		b->median[0] = a->median[0];
		b->median[1] = a->median[1];
		b->lead = a->lead;
		b->hopeless = a->hopeless;
		b->done = a->lead != LEAD_PENDING;
	}
	for (size_t i = 0; i < file->bracket_count; i++)
		if (!bracket_tried(x, &file->bracket[i]))
			return cause_set(cause, -EINVAL,
					 "%s.brackets[%zu]: not between two "
					 "sizes tried with its leads",
					 path, i);
	memcpy(x->bracket, file->bracket,
	       file->bracket_count * sizeof(x->bracket[0]));
	x->bracket_count = file->bracket_count;
	return 0;
}

/* The runs' list, grown to hold count of them. */
static int load_runs(const cJSON *obj, const char *path, struct crossover *x,
		     char **cause)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, "runs");
	size_t n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;

	x->run = calloc(n + 1, sizeof(*x->run));
	if (!x->run)
		return -ENOMEM;
	x->run_capacity = n + 1;
	return load_list(obj, "runs", path, &crossover_run_record, x->run,
			 sizeof(*x->run), n, &x->run_count, cause);
}

int export_search_load(const cJSON *obj, const char *path, struct session *s,
		       char **cause)
{
	struct crossover *x = calloc(1, sizeof(*x));
	struct crossover *file = calloc(1, sizeof(*file));
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(obj, "text");
	int r = x && file ? 0 : -ENOMEM;

	if (r == 0)
		r = codec_read(&crossover_record, obj, x, path, CODEC_FILE,
			       cause);
	if (r == 0)
		r = load_runs(obj, path, x, cause);
	if (r == 0)
		r = load_list(obj, "sizes", path, &crossover_size_record,
			      file->size, sizeof(file->size[0]),
			      CROSSOVER_SIZES_MAX, &file->size_count, cause);
	if (r == 0)
		r = load_list(obj, "brackets", path, &crossover_bracket_record,
			      file->bracket, sizeof(file->bracket[0]),
			      CROSSOVER_BRACKETS_MAX, &file->bracket_count,
			      cause);
	if (r == 0)
		r = crossover_loaded(x, s->results, s->result_count, path,
				     cause);
	if (r == 0)
		r = load_follows(x, file, path, cause);
	/* The line is said again from the search: its words may change. */
	if (r == 0 && text && !cJSON_IsString(text))
		r = cause_set(cause, -EINVAL, "%s.text: must be text", path);
	free(file);
	if (r < 0) {
		crossover_free(x);
		return r;
	}
	crossover_free(s->crossover);
	s->crossover = x;
	return 0;
}
