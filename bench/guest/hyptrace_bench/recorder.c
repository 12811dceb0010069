// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench drain: hyptrace record (or hyptrace agent) as the reader.
 */
#include "bench.h"

#define RECORD_FILE		"/tmp/hyptrace-bench.dat"
#define RAW_POLL_MS_PARAM	"/sys/module/hyptrace/parameters/raw_poll_ms"
/*
 * How long the recorder may stay silent: its start, or its final drain and
 * the writing of the trace.dat. Only a hung recorder takes that long.
 */
#define RECORDER_TIMEOUT_MS	60000
/* What the gate (the recorder's command) prints once it runs */
#define GATE_READY		"@gate ready\n"
/* What hyptrace agent prints once tracing is on (--start, or a client) */
#define AGENT_READY		"hyptrace agent: started (round 1)\n"
/* The pacer of a networked recorder's start and end (see spinner_start) */
#define PACE_SPIN_NS		(1 * NSEC_PER_MSEC)
#define PACE_SLEEP_NS		(9 * NSEC_PER_MSEC)

/*
 * record-gate: the recorder's command in a trial. Says it runs, waits for
 * its stdin to close, then tells the CPU time it took itself: wait4()
 * counts it in the recorder's, and it is none of the recorder's work.
 */
int cmd_record_gate(const struct options *o)
{
	struct rusage ru;
	char c;

	(void)o;
	if (write(STDOUT_FILENO, GATE_READY, strlen(GATE_READY)) < 0)
		return 1;
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	getrusage(RUSAGE_SELF, &ru);
	printf("@gate cpu_ns=%llu\n", rusage_ns(&ru));
	return 0;
}

/* The module's raw_poll_ms, for the record, or "unknown". */
void raw_poll_ms(char *buf, size_t size)
{
	if (access(RAW_POLL_MS_PARAM, R_OK)) {
		snprintf(buf, size, "unknown");
		return;
	}
	read_file(RAW_POLL_MS_PARAM, buf, size);
	buf[strcspn(buf, "\n")] = '\0';
}

static _Noreturn void recorder_die(struct recorder *rec, const char *what)
{
	if (rec->pid > 0)
		kill(rec->pid, SIGKILL);
	die("hyptrace record %s; it printed:\n%.*s", what, (int)rec->len,
	    rec->out);
}

/*
 * Read what the recorder prints until @text is among it (true), or to its
 * end if @text is NULL (true), or until it ends without @text (false).
 * Silence for @timeout_ms (-1: no limit) is a hung recorder.
 */
static bool recorder_read(struct recorder *rec, const char *text,
			  int timeout_ms)
{
	ssize_t n;

	for (;;) {
		rec->out[rec->len] = '\0';
		if (text && strstr(rec->out, text))
			return true;
		if (rec->len == sizeof(rec->out) - 1)
			recorder_die(rec, "printed too much");
		if (!wait_readable(rec->out_fd, timeout_ms))
			recorder_die(rec, "does not answer");
		n = read(rec->out_fd, rec->out + rec->len,
			 sizeof(rec->out) - 1 - rec->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("reading from hyptrace record: %s", strerror(errno));
		if (!n)
			return !text;
		rec->len += n;
	}
}

/*
 * Start "hyptrace record -b @kb -e EVENT... -C @cpu" on CPU @reader_cpu,
 * EVENT each of the comma-separated @events, with our own program @self as
 * the gate, and wait till it records.
 */
void recorder_start(struct recorder *rec, const char *self,
		    unsigned long kb, const char *events,
		    unsigned long cpu, unsigned long reader_cpu)
{
	char kb_text[24], cpu_text[24], list[64];
	char *argv[32];
	int out[2], go[2];
	unsigned int n = 0;
	char *save, *ev;

	snprintf(kb_text, sizeof(kb_text), "%lu", kb);
	snprintf(cpu_text, sizeof(cpu_text), "%lu", cpu);
	if (snprintf(list, sizeof(list), "%s", events) >= (int)sizeof(list))
		die("event list too long: %s", events);
	argv[n++] = RECORDER;
	argv[n++] = rec->agent ? "agent" : "record";
	if (rec->net) {
		argv[n++] = "-N";
		argv[n++] = (char *)rec->net;
	}
	if (rec->agent && rec->net) {
		argv[n++] = "--key";
		argv[n++] = (char *)rec->key;
		/* Virtual time runs ahead while we wait: keep the client */
		argv[n++] = "--idle-s";
		argv[n++] = "0";
	} else if (rec->agent) {
		argv[n++] = "--start";
	}
	argv[n++] = "-b";
	argv[n++] = kb_text;
	for (ev = strtok_r(list, ",", &save); ev;
	     ev = strtok_r(NULL, ",", &save)) {
		if (n + 12 > ARRAY_SIZE(argv))
			die("too many events: %s", events);
		argv[n++] = "-e";
		argv[n++] = ev;
	}
	if (!rec->agent) {
		argv[n++] = "-C";
		argv[n++] = cpu_text;
		if (!rec->net) {
			argv[n++] = "-o";
			argv[n++] = RECORD_FILE;
		}
		argv[n++] = "--";
		argv[n++] = (char *)self;
		argv[n++] = "record-gate";
	}
	argv[n] = NULL;
	if (pipe2(out, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		die("pipe: %s", strerror(errno));

	rec->pid = fork_or_die();
	if (!rec->pid) {
		pin_to_cpu(reader_cpu);
		/*
		 * stderr into the pipe too: its errors reach us, and it
		 * draws no progress line, as stderr is no terminal.
		 */
		if (dup2(go[0], STDIN_FILENO) < 0 ||
		    dup2(out[1], STDOUT_FILENO) < 0 ||
		    dup2(out[1], STDERR_FILENO) < 0)
			_exit(127);
		execv(RECORDER, argv);
		fprintf(stderr, "cannot run " RECORDER ": %s\n",
			strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(go[0]);
	rec->out_fd = out[0];
	rec->go_fd = go[1];
	rec->len = 0;
	if (clock_getcpuclockid(rec->pid, &rec->clock))
		die("no CPU clock for hyptrace record (pid %d)", rec->pid);
	/*
	 * agent -N waits for the host's client, which comes when the host
	 * next tries, whatever the guest's clock says meanwhile (it need
	 * not be paced: see spinner_start). The boot's own timeout catches
	 * a client that never comes.
	 */
	if (!recorder_read(rec, rec->agent ? AGENT_READY : GATE_READY,
			   rec->agent && rec->net ? -1 : RECORDER_TIMEOUT_MS))
		recorder_die(rec, rec->agent ? "ended before it started" :
			     "ended before it ran its command");
}

/*
 * Under -icount sleep=off the clock of an idle guest jumps straight to its
 * next timer. A wait on this machine's end of the network, which runs in
 * real time, then looks endless from inside, and the timeouts of the
 * recorder's handshake and of its end (and ours) expire at once. So while
 * we wait for a networked recorder to start or to finish, outside the
 * measured time, a child on a CPU that neither the writer nor the reader
 * uses paces the clock: it spins for PACE_SPIN_NS, which takes the real
 * time QEMU needs to run that many instructions (about ten times as long
 * on the hosts we use), then sleeps PACE_SLEEP_NS, which takes none. The
 * clock then runs at roughly the pace of real time.
 */
pid_t spinner_start(long cpu)
{
	pid_t pid;

	if (cpu < 0)
		return 0;
	pid = fork_or_die();
	if (!pid) {
		/* Hold no pipe open: the gate waits for its stdin's end */
		close_range(STDERR_FILENO + 1, ~0U, 0);
		pin_to_cpu(cpu);
		for (;;) {
			unsigned long long t = monotonic_ns();

			while (monotonic_ns() < t + PACE_SPIN_NS)
				;
			sleep_until_ns(t + PACE_SPIN_NS + PACE_SLEEP_NS);
		}
	}
	return pid;
}

void spinner_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The recorder's CPU time so far (it runs till we close the gate). */
unsigned long long recorder_cpu_ns(const struct recorder *rec)
{
	struct timespec ts;

	if (clock_gettime(rec->clock, &ts))
		die("the CPU time of hyptrace record: %s", strerror(errno));
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * @cpu's line of the summary: "CPU events lost dropped written bytes
 * pages", with a "+" after lost if a page did not say how many it lost.
 */
static bool parse_summary_line(const char *line, unsigned long cpu,
			       struct record_counts *c)
{
	unsigned long n;
	int end;

	if (sscanf(line, " %lu %llu %llu%n", &n, &c->events, &c->lost,
		   &end) != 3 || n != cpu)
		return false;
	c->lost_unknown = line[end] == '+';
	line += end + c->lost_unknown;
	return sscanf(line, " %llu %llu %llu %llu", &c->dropped, &c->written,
		      &c->bytes, &c->pages) == 4;
}

/*
 * The agent's line for @cpu at its stop: "hyptrace agent: CPU N: W written,
 * S pages sent, D dropped (E events), L lost". What it sent is what the
 * hypervisor wrote less what was dropped and lost.
 */
static bool parse_agent_line(const char *line, unsigned long cpu,
			     struct record_counts *c)
{
	unsigned long long dropped_pages;
	unsigned long n;

	if (sscanf(line, "hyptrace agent: CPU %lu: %llu written, %llu pages sent, %llu dropped (%llu events), %llu lost",
		   &n, &c->written, &c->pages, &dropped_pages, &c->dropped,
		   &c->lost) != 6 || n != cpu)
		return false;
	c->events = c->written - c->dropped - c->lost;
	c->bytes = c->pages * sysconf(_SC_PAGESIZE);
	return true;
}

/* Take @cpu's counts and the gate's CPU time from what the recorder printed. */
static void recorder_parse(struct recorder *rec, unsigned long cpu,
			   struct record_counts *c,
			   unsigned long long *gate_ns)
{
	bool have_line = false, have_gate = false;
	char *line, *p;

	for (line = rec->out; line && *line; line = p) {
		p = strchr(line, '\n');
		if (p)
			*p++ = '\0';
		if (sscanf(line, "@gate cpu_ns=%llu", gate_ns) == 1)
			have_gate = true;
		else if (!have_line && rec->agent)
			have_line = parse_agent_line(line, cpu, c);
		else if (!have_line)
			have_line = parse_summary_line(line, cpu, c);
		if (p)
			p[-1] = '\n';	/* keep the text whole for errors */
	}
	if (rec->agent) {
		*gate_ns = 0;	/* no gate */
		have_gate = true;
	}
	if (!have_line || !have_gate)
		recorder_die(rec, have_line ? "ran no gate" :
			     "printed no summary line for the CPU");
}

/*
 * Let the gate go, which ends the recording; collect the counts and the
 * recorder's CPU time, less the gate's.
 */
void recorder_finish(struct recorder *rec, unsigned long cpu,
		     struct record_counts *c)
{
	unsigned long long gate_ns;
	struct rusage ru;
	int status;

	close(rec->go_fd);
	/* The agent stops its round, sends it, and exits on SIGTERM */
	if (rec->agent)
		kill(rec->pid, SIGTERM);
	recorder_read(rec, NULL, RECORDER_TIMEOUT_MS);
	close(rec->out_fd);
	if (wait4(rec->pid, &status, 0, &ru) != rec->pid)
		die("wait4 for hyptrace record: %s", strerror(errno));
	rec->pid = 0;	/* reaped: nothing left to kill */
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		recorder_die(rec, "failed");
	recorder_parse(rec, cpu, c, &gate_ns);
	c->cpu_ns = rusage_ns(&ru) - gate_ns;
	unlink(RECORD_FILE);
}
