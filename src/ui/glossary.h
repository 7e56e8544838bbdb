/*
 * The glossary: what the words the screens use mean, for the help (F1).
 * Words that a table holds are said from it -- the controls' labels with
 * their rows' help, the receive sides' tags, the profile's roles with their
 * own sentences -- and each figure of the metric table has its meaning
 * here, one for every row (test-keys checks).
 */
#ifndef NIO_TOP_UI_GLOSSARY_H
#define NIO_TOP_UI_GLOSSARY_H

#include "paint.h"

/* What metric key's figure is, for people; NULL: none said. */
const char *ui_gloss_metric(const char *key);

/* The glossary's lines, width wide, after those in l. */
void ui_glossary(struct ui_lines *l, int width);

#endif
