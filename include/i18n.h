/* Translation macros that vanish when NLS is disabled. */
#ifndef COUNTERSIGN_I18N_H
#define COUNTERSIGN_I18N_H

#include "config.h"

#if ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#endif
#define N_(s) (s)

#endif
