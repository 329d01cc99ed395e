/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evloop.h: the parts of capaudit's epoll loops (trace, record): signals as
 * a signalfd, timers as timerfds, and adding them to an epoll set.
 */
#ifndef CAPAUDIT_EVLOOP_H
#define CAPAUDIT_EVLOOP_H

#include <stdbool.h>

/* Blocks the n signals and returns a signalfd for them, or -errno. */
int evloop__signalfd(const int *signals, int n);
/* A CLOCK_MONOTONIC timerfd firing after seconds (then every seconds if repeat), or -errno. */
int evloop__timerfd(unsigned int seconds, bool repeat);
/* Re-arms a timerfd. */
int evloop__arm(int fd, unsigned int seconds, bool repeat);
/* Adds fd for reading; a negative fd is an earlier error, returned as is. */
int evloop__add(int epfd, int fd);

#endif
