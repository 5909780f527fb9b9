/* int_gcd.h - the greatest common divisor, for the block and unit arithmetic of plans. */
#ifndef VTA_INT_GCD_H
#define VTA_INT_GCD_H

#include <stdint.h>

static inline uint64_t vta_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		const uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif /* VTA_INT_GCD_H */
