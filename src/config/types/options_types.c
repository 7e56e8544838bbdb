/*
 * The types of option values, one const struct option_type_ops each: what
 * each can do -- be read from command-line text, be read from JSON (a
 * preset, a run on the wire or in an export) and written as JSON, give its
 * JSON Schema, and describe itself in nio-top-preset(5) and --help.  A row
 * of the option table only names its type and says where its value is and
 * within what range.  Each type lives in the file of its family:
 *
 *   options_type_numbers.c   flags and booleans, whole numbers, seconds,
 *                            real numbers, rates, byte counts, message sizes
 *   options_type_choices.c   strategies, perf events, a choice, choices
 *   options_type_names.c     a name, text, a path, -p's preset
 *   options_type_network.c   CPU lists, a subnet
 *   options_probe.c          --probe's rate and request size
 *
 * and what the families share is options_type_common.c.  Adding a type is
 * its struct in its family's file, declared in options_type_common.h, and
 * one line here.
 */
#include "options_type_common.h"

const struct option_type_ops *const option_types[OPTION_TYPE_COUNT] = {
	[OPTION_FLAG] = &option_type_flag,
	[OPTION_BOOL] = &option_type_bool,
	[OPTION_UINT] = &option_type_uint,
	[OPTION_SECONDS] = &option_type_seconds,
	[OPTION_NUMBER] = &option_type_number,
	[OPTION_RATE] = &option_type_rate,
	[OPTION_BYTES] = &option_type_bytes,
	[OPTION_SIZES] = &option_type_sizes,
	[OPTION_COUNTS] = &option_type_counts,
	[OPTION_STRATEGIES] = &option_type_strategies,
	[OPTION_CHOICE] = &option_type_choice,
	[OPTION_CHOICES] = &option_type_choices,
	[OPTION_NAME] = &option_type_name,
	[OPTION_TEXT] = &option_type_text,
	[OPTION_PATH] = &option_type_path,
	[OPTION_SUBNET] = &option_type_subnet,
	[OPTION_EVENTS] = &option_type_events,
	[OPTION_CPUS] = &option_type_cpus,
	[OPTION_PRESET] = &option_type_preset,
	[OPTION_PROBE] = &option_type_probe,
};
