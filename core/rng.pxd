# Small, fast, seedable random numbers for playouts and randomised players.
# splitmix64 passes BigCrush and needs one word of state, which keeps a
# generator cheap to embed in any struct that runs in a tight loop.
from libc.stdint cimport uint64_t, uint32_t

cdef struct Rng:
    uint64_t state

cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    rng.state = seed

cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    rng.state += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = rng.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    # Lemire's multiply-shift: unbiased enough for n far below 2**32 and
    # without the division a modulo would cost.
    return <uint32_t>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)

cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)
