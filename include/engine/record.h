/*
 * Records: a struct described field by field -- a key, a kind and where the
 * field lives -- next to the struct itself.  The layers above read and write
 * every record through these descriptions alone (json/codec.h), so the
 * export, --load and the control protocol share one shape for each struct
 * and a field added to a record is added everywhere.
 */
#ifndef NIO_TOP_RECORD_H
#define NIO_TOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>

enum record_kind {
	RECORD_U64,    /* uint64_t, exact */
	RECORD_UINT,   /* unsigned int */
	RECORD_SIZE,   /* size_t */
	RECORD_INT,    /* int */
	RECORD_NUMBER, /* double; NaN is unknown (null) */
	RECORD_FINITE, /* a duration: always known, a number >= 0, never null */
	RECORD_COUNT,  /* double that counts: a whole number; NaN is null */
	RECORD_BOOL,
	RECORD_TEXT, /* char[size]; "" is null */
	RECORD_ENUM, /* int: the index of its name in names */
	/*
	 * A struct metric_values: the figures the metric table marks as
	 * delivered ("gbps", "msgs_per_s"), each under its metric's key at
	 * the record's own level.  The field has no key of its own.
	 */
	RECORD_DELIVERED,
};

struct record_field {
	const char *key; /* a path: "zerocopy.sends" is in "zerocopy" */
	enum record_kind kind;
	size_t offset;
	size_t size;		  /* RECORD_TEXT: the buffer's */
	const char *const *names; /* RECORD_ENUM: NULL-terminated */
	bool optional;		  /* newer than files that may lack it */
	/*
	 * The key it had before, read from files (exports) that lack key,
	 * never written; NULL: none.
	 */
	const char *was;
};

struct record {
	const char *name;
	const struct record_field *field;
	size_t count;
};

#define RECORD_FIELD(name, record_kind, type, member)                          \
	{                                                                      \
		.key = name, .kind = record_kind,                              \
		.offset = offsetof(type, member)                               \
	}
/* A field once written under another key, which files may still hold. */
#define RECORD_FIELD_WAS(name, former, record_kind, type, member)              \
	{                                                                      \
		.key = name, .kind = record_kind,                              \
		.offset = offsetof(type, member), .was = former                \
	}
#define RECORD_TEXT_FIELD(name, type, member)                                  \
	{                                                                      \
		.key = name, .kind = RECORD_TEXT,                              \
		.offset = offsetof(type, member),                              \
		.size = sizeof(((type *)0)->member)                            \
	}
#define RECORD_ENUM_FIELD(name, type, member, list)                            \
	{                                                                      \
		.key = name, .kind = RECORD_ENUM,                              \
		.offset = offsetof(type, member), .names = list                \
	}

#define RECORD_DELIVERED_FIELD(type, member)                                   \
	{                                                                      \
		.key = "", .kind = RECORD_DELIVERED,                           \
		.offset = offsetof(type, member)                               \
	}

#define RECORD_OF(fields)                                                      \
	{                                                                      \
#fields, fields, sizeof(fields) / sizeof(fields[0])            \
	}

#endif
