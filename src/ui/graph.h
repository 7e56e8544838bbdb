/*
 * A graph: the last minute of one metric in braille, 2 x 4 dots a cell as
 * btop draws them ('#' and ':' without UTF-8), its box titled with the
 * figure now and the minute's top.
 */
#ifndef NIO_TOP_UI_GRAPH_H
#define NIO_TOP_UI_GRAPH_H

#include "state.h"

/* How much a graph's title says, as room allows; graphs side by side agree. */
enum ui_graph_title {
	GRAPH_TITLE_FULL,  /* "CPU % (sender): 99.8, top 99.9" */
	GRAPH_TITLE_BRIEF, /* "CPU % tx: 99.8, top 99.9" */
	GRAPH_TITLE_NOW,   /* "CPU % tx: 99.8" */
};

/* The most a graph in r can say of metric in its title. */
enum ui_graph_title ui_graph_title_fit(const struct explorer *e,
				       const struct rect *r,
				       const struct ui_metric *metric);
void ui_graph(const struct ui *ui, const struct explorer *e,
	      const struct rect *r, const struct ui_metric *metric,
	      enum ui_graph_title form);

#endif
