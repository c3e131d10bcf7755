"""Builds the native core. The default build is portable; set DIMENSIONES_NATIVE=1 to tune for
this machine's processor (-march=native), e.g. for benchmarks."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

compile_args = ["-O3"]
if os.environ.get("DIMENSIONES_NATIVE") == "1":
    compile_args.append("-march=native")

extensions = [
    Extension(f"engine.{name}", [f"src/engine/{name}.pyx"], include_dirs=["src/engine"],
              extra_compile_args=compile_args)
    for name in ("_bitboard", "_game", "_draughts", "_stacks", "_superajedrez", "_superdimensiones", "_egdb", "_search")
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3"},
        annotate=os.environ.get("DIMENSIONES_ANNOTATE") == "1",
    ),
)
