// SPDX-License-Identifier: GPL-2.0
/*
 * prsetmm: prctl(PR_SET_MM, PR_SET_MM_START_BRK, <the current start_brk>),
 * the check of the historic "prctl: Use CAP_SYS_RESOURCE for PR_SET_MM
 * option" patch.  Exits 0 on success, 1 on EPERM, 2 on any other error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

/* field 47 of /proc/self/stat (proc(5)): start_brk */
static int start_brk(unsigned long *ret)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n;
	int field;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* comm may hold spaces */
	for (field = 2; p && field < 47; field++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p + 1, "%lu", ret) == 1 ? 0 : -1;
}

int main(void)
{
	unsigned long brk;

	if (start_brk(&brk)) {
		fprintf(stderr, "prsetmm: cannot read start_brk from /proc/self/stat\n");
		return 2;
	}
	if (prctl(PR_SET_MM, PR_SET_MM_START_BRK, brk, 0, 0)) {
		fprintf(stderr, "prsetmm: PR_SET_MM_START_BRK: %s\n", strerror(errno));
		return errno == EPERM ? 1 : 2;
	}
	return 0;
}
