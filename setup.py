"""Builds the native core. The default build runs on any processor of the build machine's
family, except that on x86-64 it uses the POPCNT instruction when the build machine has it (every
x86-64 processor since 2008-2009; without it every bit count is a call into libgcc's software
routine, 7 % of a perft's instructions). DIMENSIONES_PORTABLE=1 leaves POPCNT out, for a build
that must run on older processors; DIMENSIONES_NATIVE=1 tunes for this machine's processor
(-march=native), e.g. for benchmarks. The eight extension modules are translated and compiled in
parallel, one per processor."""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext



def build_machine_has_popcnt() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return " popcnt" in f.read()
    except OSError:
        return False


compile_args = ["-O3"]
if os.environ.get("DIMENSIONES_NATIVE") == "1":
    compile_args.append("-march=native")
elif os.environ.get("DIMENSIONES_PORTABLE") != "1" and build_machine_has_popcnt():
    compile_args.append("-mpopcnt")

JOBS = os.cpu_count() or 1


class ParallelBuildExt(build_ext):
    """build_ext compiling the modules JOBS at a time (pip gives no way to pass --parallel)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS


extensions = [
    Extension(f"engine.{name}", [f"src/engine/{name}.pyx"], include_dirs=["src/engine"],
              extra_compile_args=compile_args)
    for name in ("_bitboard", "_game", "_draughts", "_draughts_wide", "_stacks", "_superajedrez", "_superdimensiones", "_search")
]

setup(
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=cythonize(
        extensions,
        nthreads=JOBS,
        compiler_directives={"language_level": "3"},
        annotate=os.environ.get("DIMENSIONES_ANNOTATE") == "1",
    ),
)
