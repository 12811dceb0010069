/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's device tree: read into the layout at boot (dt.c, dt_cpus.c,
 * dt_mem.c) and edited into Linux's copy
 */
#ifndef HYP_DT_H
#define HYP_DT_H

/* dt.c */
void dt_parse(const void *fdt);
void dt_prepare_for_linux(const void *fdt);

/* dt_cpus.c */
void dt_parse_cpus(void);
bool dt_cpu_for_psci(int node);

/* dt_mem.c */
void dt_parse_memory(void);
void dt_parse_debug_windows(void);
void dt_check_kept(void);

#endif /* HYP_DT_H */
