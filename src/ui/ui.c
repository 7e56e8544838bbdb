/*
 * The UI's life and input.  The key table below is the one list of keys: the
 * input handler looks keys up in it and the help screen is printed from it.
 * Handlers change only the UI's own state; what changes the engine goes back
 * to the main loop as a command.
 *
 * The terminal is restored on every way out: ui_close() on ordinary exits
 * (signals arrive in the main loop as events), and for a crash signal a
 * handler that writes the saved terminal modes back and re-raises.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>

#include "cause.h"
#include "ui_private.h"

enum ui_action {
	ACT_NEXT_CONTROL,
	ACT_PREV_CONTROL,
	ACT_DECREASE,
	ACT_INCREASE,
	ACT_TOGGLE,
	ACT_SWEEP,
	ACT_SAVE_PRESET,
	ACT_PRESETS,
	ACT_HISTORY_UP,
	ACT_HISTORY_DOWN,
	ACT_MARK,
	ACT_VIEW,
	ACT_METRIC,
	ACT_CHART_LESS,
	ACT_CHART_MORE,
	ACT_CHART_MODE,
	ACT_EXPLAIN,
	ACT_HELP,
	ACT_THEME,
	ACT_EXPORT,
	ACT_QUIT,
	ACT_CLOSE,
};

static const struct ui_key {
	int key;
	const char *label;
	enum ui_action action;
	const char *help; /* on the first key of an action */
} ui_keys[] = {
	{'\t', "Tab", ACT_NEXT_CONTROL, "next control"},
	{KEY_DOWN, "Down", ACT_NEXT_CONTROL, NULL},
	{KEY_BTAB, "Shift-Tab", ACT_PREV_CONTROL, "previous control"},
	{KEY_UP, "Up", ACT_PREV_CONTROL, NULL},
	{KEY_LEFT, "Left", ACT_DECREASE, "smaller value of the control"},
	{'-', "-", ACT_DECREASE, NULL},
	{KEY_RIGHT, "Right", ACT_INCREASE, "larger value of the control"},
	{'+', "+", ACT_INCREASE, NULL},
	{'\n', "Enter", ACT_TOGGLE,
	 "run again; on Duration: continuous or timed"},
	{KEY_ENTER, "Enter", ACT_TOGGLE, NULL},
	{' ', "Space", ACT_TOGGLE, NULL},
	{'w', "w", ACT_SWEEP, "sweep every strategy over 256 B .. 1 MiB"},
	{'S', "S", ACT_SAVE_PRESET, "save the controls as a preset file"},
	{'p', "p", ACT_PRESETS, "load a preset (its grid runs as a sweep)"},
	{KEY_PPAGE, "PgUp", ACT_HISTORY_UP, "previous run in the history"},
	{'k', "k", ACT_HISTORY_UP, NULL},
	{KEY_NPAGE, "PgDn", ACT_HISTORY_DOWN, "next run in the history"},
	{'j', "j", ACT_HISTORY_DOWN, NULL},
	{'c', "c", ACT_MARK, "mark the selected run to compare"},
	{'v', "v", ACT_VIEW, "next view: live, compare, chart, analysis"},
	{'m', "m", ACT_METRIC, "next metric in the graph or chart"},
	{'<', "<", ACT_CHART_LESS,
	 "chart: fewer flows (round trip: smaller size)"},
	{'>', ">", ACT_CHART_MORE,
	 "chart: more flows (round trip: larger size)"},
	{'r', "r", ACT_CHART_MODE, "chart: stream or rr runs"},
	{'x', "x", ACT_EXPLAIN, "explain the strategy's data path"},
	{'?', "?", ACT_HELP, "this help"},
	{KEY_F(1), "F1", ACT_HELP, NULL},
	{'t', "t", ACT_THEME, "next theme"},
	{'e', "e", ACT_EXPORT, "export the finished runs as JSON"},
	{'q', "q", ACT_QUIT, "quit"},
	{KEY_F(10), "F10", ACT_QUIT, NULL},
	{27, "Esc", ACT_CLOSE, "close the help, explain pane or preset list"},
};

#define UI_KEY_COUNT (sizeof(ui_keys) / sizeof(ui_keys[0]))

/* What a crash handler needs, set before curses takes over. */
static struct termios crash_termios;
static bool crash_termios_saved;
static int crash_stdin_flags = -1;
static const char crash_reset[] = "\033[?1000l\033[?1006l\033[0m"
				  "\033[?25h\033[?1049l\r\n";

static void crash_handler(int sig)
{
	if (crash_termios_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_termios);
	if (crash_stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, crash_stdin_flags);
	(void)!write(STDOUT_FILENO, crash_reset, sizeof(crash_reset) - 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void crash_handlers(bool install)
{
	static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					    SIGABRT};
	struct sigaction sa = {.sa_handler = install ? crash_handler : SIG_DFL};

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(int); i++)
		sigaction(crash_signals[i], &sa, NULL);
}

/* TERM must name a terminal that can at least move the cursor. */
static int terminal_usable(char **cause)
{
	const char *term = getenv("TERM");
	int err = 0;

	if (!term || !*term)
		return cause_set(cause, -ENOTTY,
				 "TERM is not set: set it to your terminal "
				 "(e.g. TERM=xterm-256color), or run with "
				 "--batch");
	if (setupterm(term, STDOUT_FILENO, &err) != OK)
		return cause_set(cause, -ENOTTY,
				 "unknown terminal type '%s': install its "
				 "terminfo (ncurses-term) or run with --batch",
				 term);
	if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
		del_curterm(cur_term);
		return cause_set(cause, -ENOTTY,
				 "terminal type '%s' cannot move the cursor: "
				 "run with --batch",
				 term);
	}
	del_curterm(cur_term);
	return 0;
}

static int ui_set_theme(struct ui *ui, const char *name, char **cause)
{
	struct theme theme;
	int r;

	if (!ui->theme_dir) {
		if (strcmp(name, "default") != 0)
			return cause_set(cause, -ENOENT,
					 "theme '%s': no themes folder found "
					 "(set NIO_TOP_THEMES)",
					 name);
		theme_default(&ui->theme);
		return 0;
	}
	r = theme_load(ui->theme_dir, name, &theme, cause);
	if (r < 0)
		return r;
	ui->theme = theme;
	return 0;
}

int ui_open(struct ui **out, const char *theme, char **cause)
{
	struct ui *ui;
	int r;

	*cause = NULL;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return cause_set(cause, -ENOTTY,
				 "not a terminal: run with --batch");
	r = terminal_usable(cause);
	if (r < 0)
		return r;
	ui = calloc(1, sizeof(*ui));
	if (!ui)
		return -ENOMEM;
	ui->theme_dir = theme_dir();
	if (ui->theme_dir)
		theme_list(ui->theme_dir, &ui->theme_names, &ui->theme_count);
	r = ui_set_theme(ui, theme, cause);
	if (r < 0)
		goto err;
	ui->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	ui_metrics_init(ui);
	ui_charts_init(ui);
	/* Beside the delivered throughput: what it cost the sender. */
	for (size_t i = 0; i < ui->metric_count; i++)
		if (ui->metric[i].metric == (size_t)metric_find("cpu_pct") &&
		    ui->metric[i].side == SIDE_SENDER)
			ui->graph_metric = i;

	if (tcgetattr(STDIN_FILENO, &ui->saved) == 0) {
		crash_termios = ui->saved;
		crash_termios_saved = true;
	}
	ui->screen = newterm(NULL, stdout, stdin);
	if (!ui->screen) {
		r = cause_set(cause, -ENOTTY,
			      "curses cannot use this terminal");
		goto err;
	}
	/*
	 * ncurses may read() again after a mouse event, even in nodelay mode
	 * (it waits for the rest of a click); on a blocking descriptor that
	 * read would stall the main loop until the next key.
	 */
	ui->stdin_flags = fcntl(STDIN_FILENO, F_GETFL);
	crash_stdin_flags = ui->stdin_flags;
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags | O_NONBLOCK);
	crash_handlers(true);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* Quick clicks in a row arrive as double and triple clicks. */
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
			  BUTTON1_TRIPLE_CLICKED | BUTTON4_PRESSED |
			  BUTTON5_PRESSED,
		  NULL);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&ui->theme);
	getmaxyx(stdscr, ui->rows, ui->cols);
	*out = ui;
	return 0;

err:
	for (size_t i = 0; i < ui->theme_count; i++)
		free(ui->theme_names[i]);
	free(ui->theme_names);
	free(ui);
	return r;
}

void ui_close(struct ui *ui)
{
	if (!ui)
		return;
	endwin();
	delscreen(ui->screen);
	tcsetattr(STDIN_FILENO, TCSANOW, &ui->saved);
	if (ui->stdin_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, ui->stdin_flags);
	crash_stdin_flags = -1;
	crash_handlers(false);
	crash_termios_saved = false;
	for (size_t i = 0; i < ui->theme_count; i++)
		free(ui->theme_names[i]);
	free(ui->theme_names);
	free(ui->marked);
	free(ui);
}

size_t ui_chart_colours(const struct ui *ui, const char *name,
			unsigned char (*rgb)[3], size_t most)
{
	struct theme theme;
	const char *dir = theme_dir();
	char *cause = NULL;
	size_t n = 0;

	if (ui) {
		theme = ui->theme;
	} else if (!dir || theme_load(dir, name, &theme, &cause) < 0) {
		free(cause);
		if (strcmp(name, "default") != 0)
			return 0;
		theme_default(&theme);
	}
	for (size_t i = 0; i < UI_CHART_SERIES && n < most; i++)
		if (theme_role_rgb(&theme, ui_chart_roles[i], rgb[n]))
			n++;
	return n == UI_CHART_SERIES || n == most ? n : 0;
}

int ui_input_fd(const struct ui *ui)
{
	(void)ui;
	return STDIN_FILENO;
}

void ui_resize(struct ui *ui)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row &&
	    ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	getmaxyx(stdscr, ui->rows, ui->cols);
	clearok(curscr, TRUE);
}

static void ui_next_theme(struct ui *ui)
{
	size_t next = 0;
	char *cause = NULL;

	if (!ui->theme_count) {
		snprintf(ui->note, sizeof(ui->note),
			 "no themes folder: only the built-in colours");
		return;
	}
	for (size_t i = 0; i < ui->theme_count; i++)
		if (strcmp(ui->theme_names[i], ui->theme.name) == 0)
			next = (i + 1) % ui->theme_count;
	if (ui_set_theme(ui, ui->theme_names[next], &cause) < 0) {
		snprintf(ui->note, sizeof(ui->note), "%s",
			 cause ? cause : "cannot load the theme");
		free(cause);
		return;
	}
	theme_apply(&ui->theme);
	snprintf(ui->note, sizeof(ui->note), "theme: %s", ui->theme.name);
}

static void ui_mark(struct ui *ui, const struct explorer *e)
{
	size_t n = e->session->result_count;

	if (!n) {
		snprintf(ui->note, sizeof(ui->note),
			 "no finished runs to compare yet");
		return;
	}
	if (ui->marked_capacity < n) {
		bool *grown = realloc(ui->marked, n * 2 * sizeof(*grown));

		if (!grown)
			return;
		memset(grown + ui->marked_capacity, 0,
		       (n * 2 - ui->marked_capacity) * sizeof(*grown));
		ui->marked = grown;
		ui->marked_capacity = n * 2;
	}
	if (ui->cursor >= n)
		ui->cursor = n - 1;
	ui->marked[ui->cursor] = !ui->marked[ui->cursor];
}

static size_t push(struct ui_command *cmd, size_t n, enum ui_command_kind kind,
		   enum explorer_control control, int arg)
{
	if (n < UI_COMMANDS_MAX)
		cmd[n++] = (struct ui_command){kind, control, arg};
	return n;
}

static size_t ui_action(struct ui *ui, const struct explorer *e,
			enum ui_action action, struct ui_command *cmd, size_t n)
{
	size_t runs = e->session->result_count;

	switch (action) {
	case ACT_NEXT_CONTROL:
		ui->focus = (ui->focus + 1) % CONTROL_COUNT;
		break;
	case ACT_PREV_CONTROL:
		ui->focus = (ui->focus + CONTROL_COUNT - 1) % CONTROL_COUNT;
		break;
	case ACT_DECREASE:
		return push(cmd, n, UI_STEP, ui->focus, -1);
	case ACT_INCREASE:
		return push(cmd, n, UI_STEP, ui->focus, 1);
	case ACT_TOGGLE:
		return push(cmd, n,
			    ui->focus == CONTROL_DURATION ? UI_DURATION_TOGGLE
							  : UI_RESTART,
			    ui->focus, 0);
	case ACT_SWEEP:
		return push(cmd, n, UI_SWEEP, ui->focus, 0);
	case ACT_SAVE_PRESET:
		return push(cmd, n, UI_SAVE_PRESET, ui->focus, 0);
	case ACT_PRESETS:
		if (!e->preset_count) {
			snprintf(ui->note, sizeof(ui->note),
				 "no presets found (set NIO_TOP_PRESETS)");
			break;
		}
		ui->preset_menu = true;
		if (ui->preset_cursor >= e->preset_count)
			ui->preset_cursor = 0;
		break;
	case ACT_HISTORY_UP:
		if (ui->cursor > 0)
			ui->cursor--;
		break;
	case ACT_HISTORY_DOWN:
		if (ui->cursor + 1 < runs)
			ui->cursor++;
		break;
	case ACT_MARK:
		ui_mark(ui, e);
		break;
	case ACT_VIEW:
		ui->view = (ui->view + 1) % VIEW_COUNT;
		break;
	case ACT_METRIC:
		if (ui->view == VIEW_CHART)
			ui->chart_index = (ui->chart_index + 1) %
					  ui->chart_count;
		else
			ui->graph_metric = (ui->graph_metric + 1) %
					   ui->metric_count;
		break;
	case ACT_CHART_LESS:
	case ACT_CHART_MORE:
	case ACT_CHART_MODE:
		/* The chart's own choices: the live controls stay. */
		if (ui->view != VIEW_CHART) {
			snprintf(ui->note, sizeof(ui->note),
				 "that key is the chart's: v shows the chart");
			break;
		}
		if (action == ACT_CHART_MODE) {
			ui->chart_mode = ui_chart_mode(ui, e) == RUN_STREAM
						 ? RUN_RR
						 : RUN_STREAM;
			ui->chart_mode_chosen = true;
			if (ui->chart[ui->chart_index].rr_only)
				snprintf(ui->note, sizeof(ui->note),
					 "a round trip is rr's alone: m for "
					 "another chart");
		} else {
			ui_chart_step(ui, e, action == ACT_CHART_MORE ? 1 : -1);
		}
		break;
	case ACT_EXPLAIN:
		ui->explain = !ui->explain;
		break;
	case ACT_HELP:
		ui->help = !ui->help;
		break;
	case ACT_THEME:
		ui_next_theme(ui);
		break;
	case ACT_EXPORT:
		return push(cmd, n, UI_EXPORT, ui->focus, 0);
	case ACT_QUIT:
		if (ui->explain) {
			ui->explain = false;
			break;
		}
		if (explorer_sweeping(e) && !ui->confirm_quit) {
			ui->confirm_quit = true;
			break;
		}
		return push(cmd, n, UI_QUIT, ui->focus, 0);
	case ACT_CLOSE:
		ui->explain = ui->help = ui->preset_menu = false;
		break;
	}
	return n;
}

/* A click or the wheel: on a control, a strategy, or a run. */
static size_t ui_mouse(struct ui *ui, const struct explorer *e,
		       struct ui_command *cmd, size_t n)
{
	MEVENT ev;
	int wheel, clicks;

	if (getmouse(&ev) != OK)
		return n;
	clicks = ev.bstate & BUTTON1_TRIPLE_CLICKED   ? 3
		 : ev.bstate & BUTTON1_DOUBLE_CLICKED ? 2
						      : 1;
	wheel = ev.bstate & BUTTON4_PRESSED   ? -1
		: ev.bstate & BUTTON5_PRESSED ? 1
					      : 0;
	if (ev.y >= ui->history.y + 1 &&
	    ev.y < ui->history.y + ui->history.h - 1 && ev.x >= ui->history.x &&
	    ev.x < ui->history.x + ui->history.w) {
		size_t runs = e->session->result_count;
		size_t row;

		if (wheel)
			return ui_action(ui, e,
					 wheel < 0 ? ACT_HISTORY_UP
						   : ACT_HISTORY_DOWN,
					 cmd, n);
		row = ui->history_first + (size_t)(ev.y - ui->history.y - 2);
		if (ev.y > ui->history.y + 1 && row < runs)
			ui->cursor = row;
		return n;
	}
	if (ev.x < ui->controls.x || ev.x >= ui->controls.x + ui->controls.w ||
	    ev.y < ui->controls.y || ev.y >= ui->controls.y + ui->controls.h)
		return n;
	if (wheel)
		return push(cmd, n, UI_STEP, ui->focus, -wheel);
	for (int c = 0; c < CONTROL_COUNT; c++) {
		if (ev.y != ui->control_row[c])
			continue;
		ui->focus = (enum explorer_control)c;
		/* The left third steps down, the right third up. */
		if (ev.x < ui->controls.x + ui->controls.w / 3)
			return push(cmd, n, UI_STEP, ui->focus, -clicks);
		if (ev.x >= ui->controls.x + 2 * ui->controls.w / 3)
			return push(cmd, n, UI_STEP, ui->focus, clicks);
		return n;
	}
	if (ev.y >= ui->strategy_row &&
	    ev.y < ui->strategy_row + (int)strategy_count()) {
		ui->focus = CONTROL_STRATEGY;
		return push(cmd, n, UI_SET_STRATEGY, CONTROL_STRATEGY,
			    ev.y - ui->strategy_row);
	}
	return n;
}

/* The preset list: Up and Down choose, Enter loads, Esc or q closes. */
static size_t ui_preset_key(struct ui *ui, const struct explorer *e, int ch,
			    struct ui_command *cmd, size_t n)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (ui->preset_cursor > 0)
			ui->preset_cursor--;
		break;
	case KEY_DOWN:
	case 'j':
		if (ui->preset_cursor + 1 < e->preset_count)
			ui->preset_cursor++;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		ui->preset_menu = false;
		return push(cmd, n, UI_LOAD_PRESET, ui->focus,
			    (int)ui->preset_cursor);
	case 27:
	case 'q':
	case 'p':
		ui->preset_menu = false;
		break;
	}
	return n;
}

size_t ui_read(struct ui *ui, const struct explorer *e,
	       struct ui_command cmd[UI_COMMANDS_MAX])
{
	size_t n = 0;
	int ch;

	while ((ch = getch()) != ERR) {
		bool known = false;

		/* resizeterm() queued it: the size is already known. */
		if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, ui->rows, ui->cols);
			continue;
		}
		if (ch == KEY_MOUSE) {
			n = ui_mouse(ui, e, cmd, n);
			continue;
		}
		/* The help closes on any key; a second q confirms a quit. */
		if (ui->help) {
			ui->help = false;
			continue;
		}
		if (ui->preset_menu) {
			n = ui_preset_key(ui, e, ch, cmd, n);
			continue;
		}
		if (ui->confirm_quit && ch != 'q' && ch != KEY_F(10)) {
			ui->confirm_quit = false;
			continue;
		}
		if (ch == '\r')
			ch = '\n';
		for (size_t i = 0; i < UI_KEY_COUNT && !known; i++) {
			if (ui_keys[i].key != ch)
				continue;
			known = true;
			n = ui_action(ui, e, ui_keys[i].action, cmd, n);
		}
		if (!known)
			snprintf(ui->note, sizeof(ui->note),
				 "no such key; ? or F1 lists the keys");
	}
	return n;
}

/* The help screen, from the key table: every action with all its keys. */
void ui_help(struct ui *ui, const struct rect *r)
{
	int y = r->y + 2;

	ui_box(ui, r, ROLE_TITLE, "Keys (any key closes)");
	for (size_t i = 0; i < UI_KEY_COUNT && y < r->y + r->h - 1; i++) {
		char keys[64] = "";
		size_t len = 0;

		if (!ui_keys[i].help)
			continue;
		for (size_t j = i; j < UI_KEY_COUNT; j++)
			if (ui_keys[j].action == ui_keys[i].action &&
			    !strstr(keys, ui_keys[j].label))
				len += (size_t)snprintf(
					keys + len, sizeof(keys) - len, "%s%s",
					len ? " " : "", ui_keys[j].label);
		ui_text(y, r->x + 3, 20, ROLE_HIGHLIGHT, "%s", keys);
		ui_text(y, r->x + 24, r->w - 26, ROLE_TEXT, "%s",
			ui_keys[i].help);
		y++;
	}
	if (y + 1 < r->y + r->h - 1)
		ui_text(y + 1, r->x + 3, r->w - 5, ROLE_INACTIVE,
			"Mouse: click a control's left or right end to step "
			"it, a strategy to pick it, a run to select it; the "
			"wheel steps the focused control.");
}
