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

#endif
