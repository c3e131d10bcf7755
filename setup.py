"""Builds the native core. The default build is portable; set DIMENSIONES_NATIVE=1 to tune for
this machine's processor (-march=native), e.g. for benchmarks. The eight extension modules are
translated and compiled in parallel, one per processor."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

compile_args = ["-O3"]
if os.environ.get("DIMENSIONES_NATIVE") == "1":
    compile_args.append("-march=native")

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
    for name in ("_bitboard", "_game", "_draughts", "_stacks", "_superajedrez", "_superdimensiones", "_egdb", "_search")
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
