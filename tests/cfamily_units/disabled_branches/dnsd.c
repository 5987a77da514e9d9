#include <stdio.h>
#if 0
#include "gone.h"
#define HTTPS_RR_CODE_MANDATORY 0x00
static void old_dump(const unsigned char *data)
#endif
#define HTTPS_RR_CODE_ALPN 0x01
#if 0 /* enable for debugging */
void trace(int level);
#elif defined(TRACE)
void trace_on(int level);
#else
void trace_off(int level);
#endif
int main(void) { return 0; }
