// SPDX-License-Identifier: GPL-2.0
/*
 * The layout the boot CPU decides before any other CPU runs (setup.c and
 * the device tree's parsers fill it), read by nearly every file. It lives
 * here, in a file that calls nothing, so that reading it does not make a
 * file depend on the bring-up that fills it (scripts/check-circles.sh).
 */
#include "hyp_layout.h"

struct hyp_layout hyp_layout;

/* No /psci (dt_cpus.c): firmware.S answers NOT_SUPPORTED without an SMC */
bool hyp_no_firmware;
