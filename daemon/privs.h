/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privs.h: giving up privilege once the BPF programs are attached and the
 * kernel's symbols read.  What the recorder and trace do from then on (read
 * the ring buffer and the maps through fds they hold, /proc and cgroupfs,
 * their own store) needs no capability.
 */
#ifndef CAPAUDIT_PRIVS_H
#define CAPAUDIT_PRIVS_H

/*
 * Clears the effective, permitted, inheritable and ambient sets (and the
 * bounding set where CAP_SETPCAP allows it), so that neither this process
 * nor anything it could execute regains one.  0, or -errno with a message.
 */
int privs__drop_all(const char *who);

/*
 * As privs__drop_all(), but a process that is not root and holds
 * CAP_DAC_READ_SEARCH keeps it in its permitted set only (not effective,
 * not inheritable): the one capability the recorder needs later, to read the
 * container runtimes' root-only records of names (containers.c).
 */
int privs__drop_all_but_read(const char *who);

/*
 * Raise CAP_DAC_READ_SEARCH into the effective set around a read, where it
 * was kept; else nothing.  Every privs__read_begin() has its privs__read_end().
 */
void privs__read_begin(void);
void privs__read_end(void);

#endif
