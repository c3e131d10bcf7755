"""The typed API: py.typed, the stubs of the native classes (tools/make_stubs.py), and mypy on
programs that use them."""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine

PACKAGE = Path(engine.__file__).parent
NATIVE = {
    "_draughts": ("DraughtsBoard", "DraughtsMove"),
    "_stacks": ("StackBoard", "StackMove"),
    "_superajedrez": ("SuperajedrezBoard", "SuperajedrezMove"),
    "_superdimensiones": ("SuperDimensionesBoard", "SuperDimensionesMove"),
    "_search": ("Engine",),
}


def stub_members(module: str) -> dict:
    tree = ast.parse((PACKAGE / f"{module}.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    names.add(item.target.id)
            out[node.name] = names
    return out


def test_py_typed_and_stubs_ship():
    assert (PACKAGE / "py.typed").exists()
    for module in list(NATIVE) + ["_game", "_draughts_wide"]:
        assert (PACKAGE / f"{module}.pyi").exists(), module


@pytest.mark.parametrize("module", NATIVE)
def test_stubs_name_every_public_attribute(module):
    members = stub_members(module)
    native = __import__(f"engine.{module}", fromlist=["x"])
    for cls_name in NATIVE[module]:
        public = {n for n in dir(getattr(native, cls_name)) if not n.startswith("_")}
        missing = public - members[cls_name]
        assert not missing, f"{cls_name}: no stub for {sorted(missing)} (run tools/make_stubs.py)"


def test_the_wide_draughts_build_has_the_names_its_stub_borrows():
    """_draughts_wide.pyi re-exports _draughts' stubs: the two builds of one source must name
    the same public members and functions."""
    from engine import _draughts, _draughts_wide
    for cls_name in NATIVE["_draughts"]:
        narrow, wide = getattr(_draughts, cls_name), getattr(_draughts_wide, cls_name)
        assert narrow is not wide
        assert {n for n in dir(narrow) if not n.startswith("_")} == \
            {n for n in dir(wide) if not n.startswith("_")}
    tree = ast.parse((PACKAGE / "_draughts_wide.pyi").read_text())
    borrowed = {alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert {"DraughtsBoard", "DraughtsMove", "draughts_variants", "_set_patterns"} <= borrowed
    assert all(hasattr(_draughts_wide, name) for name in borrowed)


def mypy(tmp_path, source: str) -> subprocess.CompletedProcess:
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--strict-optional",
                           "--python-executable", sys.executable, str(program)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)


def test_mypy_accepts_a_program_using_the_api(tmp_path):
    out = mypy(tmp_path, """
        import engine
        from engine import pdn, svg

        board = engine.Board("international")
        board.push(board.legal_moves()[0])
        fen: str = board.fen()
        result = engine.Engine(16).search(board, depth=3)
        score: int = result.score
        draughts = engine.DraughtsBoard("checkers")
        move: engine.DraughtsMove = draughts.legal_moves()[0]
        square: int | str = move.from_square
        queens: int = engine.SuperajedrezBoard("superajedrez").reserve(engine.WHITE)["Q"]
        heights: tuple[int, int] = engine.StackBoard("dipole").checkers()
        picture: str = svg.board(board)
        moves = len(pdn.read_game("1. 32-28 *", "international").moves())
    """)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_misuse(tmp_path):
    out = mypy(tmp_path, """
        import engine
        board = engine.Board("international")
        ply: str = board.ply
        engine.Engine(16).search(board, depth="3")
        engine.DraughtsBoard("checkers").legal_moves()[0].hub() + 1
    """)
    assert out.returncode == 1
    assert out.stdout.count("error:") == 3, out.stdout
    assert 'variable has type "str"' in out.stdout and '"depth" to "search"' in out.stdout


def test_the_package_itself_is_clean_under_mypy():
    """The package's own code type-checks (the configuration in pyproject.toml), so that
    annotations and stubs stay true as the code changes."""
    root = Path(__file__).resolve().parent.parent          # the source tree, not the install
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "src/engine"],
                         capture_output=True, text=True, cwd=root, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success" in out.stdout
