/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sending a recording to `trace-cmd listen` as `trace-cmd record -N` does,
 * in trace-cmd's protocol version 3 (what every trace-cmd since 2.5
 * listens for, Debian 12's 3.1.6 included) with the CPU data over TCP:
 *
 *   tcnet_open()	       connect to HOST:PORT; greeting "tracecmd", version
 *		       "-1V3" / "V3", magic / "OK"; TINIT (CPUs, page size,
 *		       option "tcp"); RINIT gives a port per CPU
 *   tcnet_send_meta()   the trace.dat metadata (tracedat_meta()) in SEND_DATA
 *		       messages, then FIN_DATA; the listener must get it at
 *		       once (it waits 5 s for each message)
 *   tcnet_connect_cpus() one TCP connection per CPU to its port
 *   tcnet_send_cpu()    whole ring-buffer pages, in order, on a CPU's one
 *   tcnet_check()       has the listener gone away or complained?
 *   tcnet_finish()      end every CPU's stream and wait until the listener
 *		       has read it, send CLOSE, wait until the listener has
 *		       written its file (it closes the connection then)
 *
 * The listener writes everything to one trace.dat (its -o name, then
 * ".HOST:PORT.dat" for this end's address): our metadata, then its own
 * flyrecord table, then each CPU's bytes as they came. Every error is one
 * line in @err.
 */
#ifndef HYPTRACE_TOOLS_TCNET_H
#define HYPTRACE_TOOLS_TCNET_H

#include <stddef.h>
#include <stdint.h>

struct tcn_session;

/*
 * @where is HOST:PORT, [IPV6]:PORT, or PORT alone (localhost). NULL with
 * the reason in @err: the name does not resolve, nobody listens there,
 * it is not a trace-cmd listener, it does not speak version 3, it refused
 * our TINIT.
 */
struct tcn_session *tcnet_open(const char *where, unsigned int nr_cpus,
			     unsigned int page_size, char *err, size_t errlen);
int tcnet_send_meta(struct tcn_session *s, const void *meta, size_t len,
		  char *err, size_t errlen);
int tcnet_connect_cpus(struct tcn_session *s, char *err, size_t errlen);
int tcnet_send_cpu(struct tcn_session *s, unsigned int cpu, const void *buf,
		 size_t len, char *err, size_t errlen);
int tcnet_check(struct tcn_session *s, char *err, size_t errlen);
int tcnet_finish(struct tcn_session *s, char *err, size_t errlen);
void tcnet_free(struct tcn_session *s);

/* "HOST:PORT" as given, for messages */
const char *tcnet_peer(const struct tcn_session *s);
/* The data port the listener gave @cpu, and the bytes sent on it */
unsigned int tcnet_cpu_port(const struct tcn_session *s, unsigned int cpu);
uint64_t tcnet_cpu_bytes(const struct tcn_session *s, unsigned int cpu);
uint64_t tcnet_meta_bytes(const struct tcn_session *s);

#endif /* HYPTRACE_TOOLS_TCNET_H */
