"""ltfuzz: the random differential-test program generator behind
tools/fuzz/gen.py, as a core (ltfuzz/core.py: state, hooks, assembly; the
shapes of f, ltfuzz/shapes.py; the checks in main, ltfuzz/check.py) and one
module per mode. A mode is a Mode subclass (ltfuzz/mode.py: its flag and
hooks); adding one is a new module and a line in MODES. The order of MODES
is the order of the modes' random draws and of their hooks: a new mode
goes at the end (or draws from its own stream), so that the programs of
the existing flags do not change."""
from .adaptive import Adaptive
from .alias import Alias
from .calls import Calls
from .capped import Capped
from .constwork import ConstWork
from .copies import Copies
from .diffuse import Diffuse
from .core import Core
from .cxx import Cxx
from .eigen import Eigen
from .entry import Entry
from .forward import Forward
from .gather import Gather
from .inplace import Inplace
from .kernels import Kernels
from .lagged import Lagged
from .memops import Memops
from .reductions import Reductions
from .sweeps import Sweeps
from .temps import Temps
from .mpi import Mpi
from .omp import Omp
from .pointers import Pointers
from .primal import Primal
from .retarg import Retarg
from .scratch import Scratch
from .split import Split
from .stencil import Stencil
from .structvec import StructVec
from .timeloop import Grid, StepsVar, Swap, Timeloop
from .timewhile import TimeWhile

MODES = [Pointers, Calls, Cxx, Alias, Forward, Primal, Split, Eigen, Adaptive, Omp, Entry, Kernels,
         Retarg, Timeloop, StepsVar, Grid, TimeWhile, Capped, Stencil, Gather,
         Inplace, Scratch, Copies, StructVec, Diffuse, Mpi, Swap, Lagged, Memops, Reductions,
         Sweeps, Temps, ConstWork]


class Gen(Core, *MODES):
    """The generator: the core and every mode's methods; the hooks of the
    active modes only."""

    def __init__(self, seed, **opts):
        super().__init__(seed, MODES, **opts)


def generate(seed, **opts):
    """The program text for a seed; opts: loops, max_depth and the modes'
    names (pointers=True, ...)."""
    return Gen(seed, **opts).program()
