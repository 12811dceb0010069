/* SPDX-License-Identifier: GPL-2.0 */
/* libfdt_env.h includes <stdlib.h>; libfdt itself needs nothing from it. */
#ifndef HYP_SYS_STDLIB_H
#define HYP_SYS_STDLIB_H
#include <stddef.h>
#endif
