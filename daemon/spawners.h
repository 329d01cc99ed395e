/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawners.h: the executables that set a workload up before its own program
 * runs: service managers (systemd) and container runtimes (runc, crun,
 * conmon, containerd's shims).
 */
#ifndef CAPAUDIT_SPAWNERS_H
#define CAPAUDIT_SPAWNERS_H

#include "capaudit.h"

/*
 * Fill exes (up to max) with the spawners installed here, identified the way
 * the BPF program sees them (capaudit.h).  Returns how many; an executable
 * that is missing is skipped, one file reached by two paths comes once.
 */
int spawners__find(struct capaudit_setup_exe *exes, int max);

#endif
