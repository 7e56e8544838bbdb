/*
 * What the UI asks of the main loop: a control stepped, a run, an export,
 * a preset, quitting.  Apart from ui.h so that the UI's own modules can
 * speak of commands without depending on its entry points.
 */
#ifndef NIO_TOP_UI_COMMAND_H
#define NIO_TOP_UI_COMMAND_H

struct option_row;

enum ui_command_kind {
	UI_STEP,	 /* control by arg values */
	UI_SET_STRATEGY, /* arg: the registry index */
	UI_TOGGLE,	 /* control: explorer_toggle() */
	UI_SWEEP,
	UI_EXPORT,
	UI_SAVE_PRESET, /* text: the name */
	UI_LOAD_PRESET, /* arg: the index in the explorer's presets */
	UI_CROSSOVER,	/* arg: the other strategy's index; text: a figure */
	UI_QUIT,
};

struct ui_command {
	enum ui_command_kind kind;
	const struct option_row *control; /* a row with a control */
	int arg;
	char text[64]; /* UI_SAVE_PRESET: the preset's name; UI_CROSSOVER */
};

#define UI_COMMANDS_MAX 32

#endif
