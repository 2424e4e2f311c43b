"""The command line: parse input, call the pure core, render the result."""

import gc
import os

# A command is a short process that imports a great deal (SQLAlchemy, pydantic, five rule
# systems' models) and frees little: the collector's default first threshold (700 allocations)
# ran it hundreds of times during start-up for nothing, about 8 % of `jdr demo`. Collections
# still run, 70 times less often; long commands (`serve`, `simulate`) are unaffected in kind.
gc.set_threshold(50_000, 20, 20)

# NumPy's BLAS starts a thread per core at import, which costs more CPU (60 ms) than jdr's
# arithmetic ever gains from it: convolutions and FFTs do not use BLAS, and the Markov chains
# are small. A user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
