#if X
int f(void) {
#else
int f(long a) {
#endif
	return ns_capable(ns, CAP_SYS_ADMIN)))));
}}}}
