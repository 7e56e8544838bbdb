/*
 * JSON files from users.  cJSON parses; a small scanner of our own runs over
 * the same text to keep what cJSON drops: where an error is in terms of keys
 * (the path at the error offset), how deep the nesting goes (refused before
 * cJSON recurses), and the exact text of each number, attached to its item
 * in document order so that 2^53 + 1 survives.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "userfile.h"

struct frame {
	bool array;
	size_t index;
	const char *key; /* in the text, quoted; NULL before the first key */
	size_t key_len;
};

struct scan {
	const char *text;
	size_t len;
	struct frame stack[JSONFILE_DEPTH_MAX + 1];
	unsigned int depth;
	bool too_deep;
	/*
	 * 1 + where the first raw control character is: in a string, or
	 * between values, where JSON allows a space, a tab and line ends
	 * only (cJSON would skip any as blank).
	 */
	size_t control;
	bool control_in_string;
	size_t pos;
	/* Number tokens in document order. */
	size_t *num_start;
	size_t *num_len;
	size_t num_count;
	size_t num_capacity;
};

/* The key path of the innermost frames: "topology.mtu", "msg_sizes[2]". */
static void scan_path(const struct scan *s, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned int i = 1; i <= s->depth && used < size; i++) {
		const struct frame *f = &s->stack[i];
		int n;

		if (f->array)
			n = snprintf(out + used, size - used, "[%zu]",
				     f->index);
		else if (f->key)
			n = snprintf(out + used, size - used, "%s%.*s",
				     used ? "." : "", (int)f->key_len, f->key);
		else
			break;
		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (!out[0])
		snprintf(out, size, "(top level)");
}

static int scan_number(struct scan *s, size_t start)
{
	size_t end = start;

	while (end < s->len && strchr("+-0123456789.eE", s->text[end]))
		end++;
	if (s->num_count == s->num_capacity) {
		size_t cap = s->num_capacity ? 2 * s->num_capacity : 64;
		size_t *a = realloc(s->num_start, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		s->num_start = a;
		a = realloc(s->num_len, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		s->num_len = a;
		s->num_capacity = cap;
	}
	s->num_start[s->num_count] = start;
	s->num_len[s->num_count++] = end - start;
	s->pos = end;
	return 0;
}

/*
 * Walks the text up to stop (or its end), tracking the key path; stops early
 * where nesting passes the limit.  Syntax is cJSON's to judge.
 */
static int scan_run(struct scan *s, size_t stop)
{
	bool expect_key = false;

	s->depth = 0;
	s->pos = 0;
	s->num_count = 0;
	while (s->pos < stop && s->pos < s->len) {
		char c = s->text[s->pos];
		struct frame *top = &s->stack[s->depth];

		switch (c) {
		case '{':
		case '[':
			if (s->depth == JSONFILE_DEPTH_MAX) {
				s->too_deep = true;
				return 0;
			}
			s->stack[++s->depth] = (struct frame){.array = c ==
								       '['};
			expect_key = c == '{';
			s->pos++;
			break;
		case '}':
		case ']':
			if (s->depth > 0)
				s->depth--;
			expect_key = false;
			s->pos++;
			break;
		case ',':
			if (s->depth > 0 && top->array)
				top->index++;
			expect_key = s->depth > 0 && !top->array;
			s->pos++;
			break;
		case '"': {
			size_t start = ++s->pos;

			while (s->pos < s->len && s->text[s->pos] != '"') {
				/* JSON wants them escaped (\u001b). */
				if ((unsigned char)s->text[s->pos] < 0x20 &&
				    !s->control) {
					s->control = s->pos + 1;
					s->control_in_string = true;
				}
				s->pos += s->text[s->pos] == '\\' ? 2 : 1;
			}
			if (expect_key && s->depth > 0) {
				top->key = s->text + start;
				top->key_len = s->pos - start;
				expect_key = false;
			}
			s->pos++;
			break;
		}
		case '-':
		case '0' ... '9':
			if (scan_number(s, s->pos) < 0)
				return -ENOMEM;
			break;
		default:
			if ((unsigned char)c < 0x20 && !strchr("\t\n\r", c) &&
			    !s->control)
				s->control = s->pos + 1;
			s->pos++;
		}
	}
	return 0;
}

static void line_col(const char *text, size_t offset, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < offset && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Gives every number item its token's text, in document order. */
static int attach_numbers(cJSON *item, const struct scan *s, size_t *next)
{
	for (; item; item = item->next) {
		if (cJSON_IsNumber(item)) {
			if (*next == s->num_count)
				return -EPROTO;
			item->valuestring = strndup(s->text +
							    s->num_start[*next],
						    s->num_len[*next]);
			if (!item->valuestring)
				return -ENOMEM;
			(*next)++;
		}
		if (item->child && attach_numbers(item->child, s, next) < 0)
			return -EPROTO;
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a key appears twice in one object under node; path says where. */
static bool has_duplicate(const cJSON *node, char *path, size_t size)
{
	size_t used = strlen(path), n = 0, i = 0;
	bool dup = false;

	if (cJSON_IsObject(node) && node->child && node->child->next) {
		const char **names;

		for (const cJSON *c = node->child; c; c = c->next)
			n++;
		names = malloc(n * sizeof(*names));
		if (!names)
			return false;
		for (const cJSON *c = node->child; c; c = c->next)
			names[i++] = c->string;
		qsort(names, n, sizeof(*names), cmp_names);
		for (i = 1; i < n && !dup; i++) {
			if (strcmp(names[i - 1], names[i]) == 0) {
				snprintf(path + used, size - used, "%s%s",
					 used ? "." : "", names[i]);
				dup = true;
			}
		}
		free(names);
		if (dup)
			return true;
	}
	i = 0;
	for (const cJSON *c = node->child; c; c = c->next, i++) {
		if (cJSON_IsObject(node))
			snprintf(path + used, size - used, "%s%s",
				 used ? "." : "", c->string);
		else
			snprintf(path + used, size - used, "[%zu]", i);
		if (has_duplicate(c, path, size))
			return true;
		path[used] = '\0';
	}
	return false;
}

int jsonfile_parse(const char *name, const char *text, size_t len, cJSON **root,
		   char **cause)
{
	struct scan s = {.text = text, .len = len};
	char path[JSONFILE_PATH_MAX];
	const char *end = NULL;
	size_t line, col, next = 0;
	int r;

	*root = NULL;
	*cause = NULL;
	if (memchr(text, '\0', len))
		return cause_set(cause, -EINVAL,
				 "%s: not JSON: it holds a NUL byte", name);
	r = scan_run(&s, len);
	if (r < 0)
		goto out;
	if (s.control) {
		line_col(text, s.control - 1, &line, &col);
		scan_run(&s, s.control - 1);
		scan_path(&s, path, sizeof(path));
		r = cause_set(cause, -EINVAL,
			      "%s:%zu:%zu: %s: a control character (0x%02x) "
			      "%s",
			      name, line, col, path[0] ? path : "(top)",
			      (unsigned char)text[s.control - 1],
			      s.control_in_string
				      ? "inside a string; JSON wants it escaped"
				      : "between values, where JSON allows "
					"spaces, tabs and line ends only");
		goto out;
	}
	if (s.too_deep) {
		line_col(text, s.pos, &line, &col);
		scan_path(&s, path, sizeof(path));
		r = cause_set(cause, -EINVAL,
			      "%s:%zu:%zu: %s: nested more than %d deep", name,
			      line, col, path, JSONFILE_DEPTH_MAX);
		goto out;
	}
	/* text[len] is its NUL, which cJSON wants to see. */
	*root = cJSON_ParseWithLengthOpts(text, len + 1, &end, true);
	if (!*root) {
		size_t at = end && end >= text ? (size_t)(end - text) : len;

		if (at > len)
			at = len;
		scan_run(&s, at);
		scan_path(&s, path, sizeof(path));
		line_col(text, at, &line, &col);
		r = cause_set(cause, -EINVAL, "%s:%zu:%zu: %s: %s", name, line,
			      col, path,
			      at >= len ? "the file ends early (truncated?)"
					: "not valid JSON here");
		goto out;
	}
	/* Same text, same order: one token per number item. */
	scan_run(&s, len);
	r = attach_numbers(*root, &s, &next);
	if (r < 0 || next != s.num_count) {
		r = cause_set(cause, -EINVAL, "%s: cannot read its numbers",
			      name);
		goto out;
	}
	path[0] = '\0';
	if (has_duplicate(*root, path, sizeof(path))) {
		r = cause_set(cause, -EINVAL, "%s: %s: the key appears twice",
			      name, path);
		goto out;
	}
	r = 0;
out:
	if (r < 0) {
		cJSON_Delete(*root);
		*root = NULL;
	}
	free(s.num_start);
	free(s.num_len);
	return r;
}

int jsonfile_read(const char *path, size_t max_size, cJSON **root, char **cause)
{
	char *text;
	size_t len;
	int r;

	*root = NULL;
	r = userfile_read(path, max_size, &text, &len, cause);
	if (r < 0)
		return r;
	r = jsonfile_parse(path, text, len, root, cause);
	free(text);
	return r;
}

int jsonfile_u64(const cJSON *item, uint64_t *value)
{
	const char *text = item ? item->valuestring : NULL;
	char *end;

	if (!cJSON_IsNumber(item))
		return -EINVAL;
	if (!text) {
		/* Built in memory, not read: exact only up to 2^53. */
		if (item->valuedouble < 0 ||
		    item->valuedouble > 9007199254740992.0 ||
		    item->valuedouble != (double)(uint64_t)item->valuedouble)
			return -EINVAL;
		*value = (uint64_t)item->valuedouble;
		return 0;
	}
	if (text[0] < '0' || text[0] > '9')
		return -EINVAL;
	errno = 0;
	*value = strtoull(text, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

cJSON *jsonfile_u64_item(uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	return cJSON_CreateRaw(text);
}

void jsonfile_add_u64(cJSON *obj, const char *key, uint64_t value)
{
	cJSON_AddItemToObject(obj, key, jsonfile_u64_item(value));
}
