/*
 * A long list read element by element.  The text is walked once for where
 * the list under the key begins and ends and where its elements lie (depth
 * and strings are all that decides a comma); the rest of the document is
 * parsed with the list's insides left out, and each element on its own when
 * it is asked for.  The pieces parse iff the whole does: the elements are
 * exactly what lies between the list's commas, and an element that does not
 * parse on its own sends the whole text to jsonfile_parse() for the error it
 * would have given.  A text that cannot be split (no such key at the top, a
 * key spelt with escapes) is parsed whole, and its list handed out from the
 * tree.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "jsonlist.h"
#include "userfile.h"

struct span {
	size_t start, end; /* [start, end) in the text */
};

struct jsonfile_list {
	char *name;
	char *key;
	/* Split: the text, the list's [ and ], its elements' spans. */
	char *text;
	size_t len;
	size_t open, close;
	struct span *spans;
	size_t count;
	size_t next;
	/* Whole: the list in the parsed document, emptied as it is read. */
	cJSON *array;
};

static int add_span(struct jsonfile_list *l, size_t *capacity, size_t start,
		    size_t end)
{
	if (l->count == *capacity) {
		size_t cap = *capacity ? 2 * *capacity : 64;
		struct span *s = realloc(l->spans, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		l->spans = s;
		*capacity = cap;
	}
	l->spans[l->count++] = (struct span){start, end};
	return 0;
}

static bool blank(const char *text, size_t start, size_t end)
{
	while (start < end && strchr(" \t\r\n", text[start]))
		start++;
	return start == end;
}

/*
 * Finds the list under key in the top-level object and its elements: 1 when
 * found and closed, 0 when the text has no such list (or nests deeper than a
 * file may, which the whole's parse will say), -ENOMEM.
 */
static int find_spans(struct jsonfile_list *l)
{
	const char *t = l->text;
	size_t key_len = strlen(l->key), capacity = 0, start = 0;
	bool expect_key = false, ours = false, inside = false;
	unsigned int depth = 0;

	for (size_t pos = 0; pos < l->len; pos++) {
		switch (t[pos]) {
		case '"': {
			size_t from = ++pos;

			while (pos < l->len && t[pos] != '"')
				pos += t[pos] == '\\' ? 2 : 1;
			if (depth == 1 && expect_key)
				ours = pos - from == key_len &&
				       memcmp(t + from, l->key, key_len) == 0;
			expect_key = false;
			break;
		}
		case '{':
		case '[':
			/*
			 * Not an object at the top, or too deep: parsed
			 * whole.
			 */
			if ((depth == 0 && t[pos] == '[') ||
			    depth == JSONFILE_DEPTH_MAX)
				return 0;
			if (depth == 1 && ours && t[pos] == '[') {
				l->open = pos;
				start = pos + 1;
				inside = true;
			}
			ours = false;
			expect_key = t[pos] == '{' && depth == 0;
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return 0;
			depth--;
			if (inside && depth == 1) {
				l->close = pos;
				if ((l->count || !blank(t, start, pos)) &&
				    add_span(l, &capacity, start, pos) < 0)
					return -ENOMEM;
				return 1;
			}
			break;
		case ',':
			if (inside && depth == 2) {
				if (add_span(l, &capacity, start, pos) < 0)
					return -ENOMEM;
				start = pos + 1;
			}
			expect_key = depth == 1;
			ours = false;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* The document with the list's insides left out: "runs": []. */
static int parse_head(struct jsonfile_list *l, cJSON **head, char **cause)
{
	size_t before = l->open + 1, after = l->len - l->close;
	char *text = malloc(before + after + 1);
	int r;

	if (!text)
		return -ENOMEM;
	memcpy(text, l->text, before);
	memcpy(text + before, l->text + l->close, after);
	text[before + after] = '\0';
	r = jsonfile_parse(l->name, text, before + after, head, cause);
	free(text);
	return r;
}

/*
 * A piece did not parse: the whole text's own error.  (Were the whole to
 * parse, the pieces would have: say so rather than nothing.)
 */
static int whole_error(struct jsonfile_list *l, char **cause)
{
	cJSON *root;
	int r = jsonfile_parse(l->name, l->text, l->len, &root, cause);

	if (r < 0)
		return r;
	cJSON_Delete(root);
	return cause_set(cause, -EINVAL, "%s: %s: cannot be read in pieces",
			 l->name, l->key);
}

static struct jsonfile_list *list_new(const char *name, const char *key)
{
	struct jsonfile_list *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->name = strdup(name);
	l->key = strdup(key);
	if (!l->name || !l->key) {
		jsonfile_list_free(l);
		return NULL;
	}
	return l;
}

int jsonfile_parse_list(const char *name, char *text, size_t len,
			const char *key, cJSON **head,
			struct jsonfile_list **list, char **cause)
{
	struct jsonfile_list *l = list_new(name, key);
	char *ignored = NULL;
	int r;

	*head = NULL;
	*list = NULL;
	if (!l) {
		free(text);
		return -ENOMEM;
	}
	l->text = text;
	l->len = len;
	/* A NUL, a control character or deep nesting: the whole's error. */
	r = memchr(text, '\0', len) ? 0 : find_spans(l);
	if (r == 1) {
		r = parse_head(l, head, &ignored);
		free(ignored);
		if (r == -EINVAL)
			r = whole_error(l, cause);
	} else if (r == 0) {
		/* Nothing to split: parsed whole, the list from the tree. */
		free(l->spans);
		l->spans = NULL;
		l->count = 0;
		r = jsonfile_parse(name, text, len, head, cause);
		if (r == 0)
			l->array = cJSON_GetObjectItemCaseSensitive(*head, key);
		free(l->text);
		l->text = NULL;
	}
	if (r < 0) {
		cJSON_Delete(*head);
		*head = NULL;
		jsonfile_list_free(l);
		return r;
	}
	*list = l;
	return 0;
}

int jsonfile_read_list(const char *path, size_t max_size, const char *key,
		       cJSON **head, struct jsonfile_list **list, char **cause)
{
	char *text;
	size_t len;
	int r;

	*head = NULL;
	*list = NULL;
	r = userfile_read(path, max_size, &text, &len, cause);
	if (r < 0)
		return r;
	return jsonfile_parse_list(path, text, len, key, head, list, cause);
}

struct jsonfile_list *jsonfile_list_of(cJSON *head, const char *key)
{
	struct jsonfile_list *l = list_new("", key);

	if (l)
		l->array = cJSON_GetObjectItemCaseSensitive(head, key);
	return l;
}

size_t jsonfile_list_count(const struct jsonfile_list *list)
{
	if (list->array)
		return cJSON_IsArray(list->array)
			       ? (size_t)cJSON_GetArraySize(list->array)
			       : 0;
	return list->count - list->next;
}

int jsonfile_list_next(struct jsonfile_list *list, cJSON **item, char **cause)
{
	struct span at;
	char *ignored = NULL, saved;
	int r;

	*item = NULL;
	if (list->array) {
		if (!cJSON_IsArray(list->array) || !list->array->child)
			return 0;
		*item = cJSON_DetachItemViaPointer(list->array,
						   list->array->child);
		return 1;
	}
	if (list->next == list->count)
		return 0;
	at = list->spans[list->next++];
	/* The element alone, its end NUL-terminated for the while. */
	saved = list->text[at.end];
	list->text[at.end] = '\0';
	r = jsonfile_parse(list->name, list->text + at.start, at.end - at.start,
			   item, &ignored);
	list->text[at.end] = saved;
	free(ignored);
	if (r == -EINVAL)
		return whole_error(list, cause);
	return r < 0 ? r : 1;
}

void jsonfile_list_free(struct jsonfile_list *list)
{
	if (!list)
		return;
	free(list->name);
	free(list->key);
	free(list->text);
	free(list->spans);
	free(list);
}
