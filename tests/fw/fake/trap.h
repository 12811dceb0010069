/* SPDX-License-Identifier: GPL-2.0 */
/* tests/fw: fw_optee.c needs nothing of trap.h */
