/*
 * The application: signal handling, the main loop and the front ends.  main()
 * parses the command line and hands the options here.
 */
#ifndef NIO_TOP_APP_H
#define NIO_TOP_APP_H

#include "options.h"

/* Returns the process exit status. */
int app_run(const struct options *options);

#endif
