"unterminated \
string CAP_NET_ADMIN
'\'' 'x
#define A(x) \
 capable(CAP_CHOWN) \