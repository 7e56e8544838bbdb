/*
 * A JSON file whose top level is an object holding one long list under a
 * key (an export's "runs"), read so that memory holds its text, the rest of
 * the document and one element at a time, not the whole tree: cJSON spends
 * some 100 bytes on each number of a file.  The elements are handed out in
 * order, each parsed and checked as jsonfile_read() checks a file (control
 * characters, nesting, duplicate keys, exact numbers); a file that does not
 * parse is refused with jsonfile_read()'s own error, line and column.
 */
#ifndef NIO_TOP_JSONLIST_H
#define NIO_TOP_JSONLIST_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct jsonfile_list;

/*
 * 0 with *head (the document, the list under key left empty: cJSON_Delete
 * it) and *list (jsonfile_list_free it), or -errno with *cause.
 */
int jsonfile_read_list(const char *path, size_t max_size, const char *key,
		       cJSON **head, struct jsonfile_list **list, char **cause);

/* The same from text (NUL-terminated at len), which *list takes over. */
int jsonfile_parse_list(const char *name, char *text, size_t len,
			const char *key, cJSON **head,
			struct jsonfile_list **list, char **cause);

/*
 * The list of a document already parsed: its elements are taken out of head
 * one by one as they are handed out.  NULL: out of memory.
 */
struct jsonfile_list *jsonfile_list_of(cJSON *head, const char *key);

/* How many elements are still to come (0: key absent or not a list). */
size_t jsonfile_list_count(const struct jsonfile_list *list);

/*
 * The next element: 1 with *item (the caller deletes it), 0 after the last,
 * or -errno with *cause (the file does not parse).
 */
int jsonfile_list_next(struct jsonfile_list *list, cJSON **item, char **cause);

void jsonfile_list_free(struct jsonfile_list *list);

#endif
