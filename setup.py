"""Build of the clinea package: the Cython core plus the pure-Python layers.

The repository keeps one folder per concept (core/, players/, judge/,
training/, and clinea/ for the package root: the `clinea` command and the
top-level API) while the installed import names all live under ``clinea``;
``package_dir`` maps one onto the other so that no generic name such as
``core`` lands at the top of site-packages.
"""
import ast
import glob
import os
import shutil
import subprocess
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PACKAGES = {
    "clinea": "clinea",
    "clinea.core": "core",
    "clinea.players": "players",
    "clinea.judge": "judge",
    "clinea.training": "training",
    "clinea.integrations": "clinea/integrations",
}


def cython_include_dir() -> str:
    """A directory where Cython finds core/*.pxd as clinea/core/*.pxd.

    The core's modules cimport each other relatively (`from .board cimport
    Board`); Cython resolves that against the full module name
    (clinea.core.board), so it looks for clinea/core/board.pxd on its include
    path, while the sources sit in core/. Copies (not links) are refreshed at
    every build, so a moved or copied checkout builds the same; copy2 keeps
    the timestamps Cython's dependency check reads."""
    root = os.path.join("build", "cython-include")
    staged = os.path.join(root, "clinea", "core")
    os.makedirs(staged, exist_ok=True)
    for pxd in glob.glob(os.path.join("core", "*.pxd")):
        target = os.path.join(staged, os.path.basename(pxd))
        if not os.path.isfile(target) or os.path.getmtime(target) != os.path.getmtime(pxd):
            shutil.copy2(pxd, target)
    return root


def compiler_is_gcc() -> bool:
    """Whether the C compiler setuptools will call is GCC (whose --param
    names other compilers do not know)."""
    command = (sysconfig.get_config_var("CC") or "cc").split()
    try:
        done = subprocess.run(command + ["--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "Free Software Foundation" in done.stdout


# GCC stops inlining in a C file once it has grown by 40 % (inline-unit-
# growth): the solver's three copies of its search (one word, three, four)
# reach that, and the one-word copy then calls its winning cells and its
# table stores instead of inlining them: 2.5 % more instructions on the 7x6
# files (callgrind), about as much time. 100 % inlines them again.
UNIT_GROWTH = {"solver": ["--param", "inline-unit-growth=100"]}


def extensions() -> list[Extension]:
    # -O3 as the project asks; never -march=native in what ships: wheels and
    # the course machines must run the same binary.
    gcc = compiler_is_gcc()
    modules = [os.path.splitext(os.path.basename(pyx))[0] for pyx in sorted(glob.glob(os.path.join("core", "*.pyx")))]
    return [
        Extension(
            "clinea.core." + name,
            [os.path.join("core", name + ".pyx")],
            extra_compile_args=["-O3"] + (UNIT_GROWTH.get(name, []) if gcc else []),
        )
        for name in modules
    ]


def console_scripts() -> list[str]:
    """`clinea`, and `clinea-NAME` for every built-in player, read from
    players/registry.py (BUILTIN) so a new player needs no line here."""
    with open(os.path.join("players", "registry.py"), encoding="utf-8") as source:
        tree = ast.parse(source.read())
    builtin = next(node.value for node in tree.body
                   if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "BUILTIN")
    names = ast.literal_eval(builtin)
    return ["clinea = clinea.main:main"] + [
        f"clinea-{name} = clinea.players.registry:main" for name in names
    ]


class BuildWithSeatExec(build_ext):
    """The Cython modules, then judge/seat_exec.c as a program among the
    judge's modules (in the checkout for an editable install, in the build
    for a wheel): the sandbox starts every seat with it, where a Python
    start-up cost 10 ms of CPU a seat (clinea.judge.sandbox.seat_exec)."""

    def run(self) -> None:
        super().run()
        folder = os.path.dirname(self.get_ext_fullpath("clinea.judge.seat_exec"))
        objects = self.compiler.compile([os.path.join("judge", "seat_exec.c")], output_dir=self.build_temp,
                                        extra_postargs=["-O2"])
        self.compiler.link_executable(objects, "seat_exec", output_dir=folder)


# setuptools runs this file with the project directory as the working
# directory (pip, build and editable installs alike); the relative paths
# above rely on it, and keep absolute paths out of the sdist's SOURCES.txt.
setup(
    packages=list(PACKAGES),
    package_dir=PACKAGES,
    package_data={"clinea": ["*.html", "py.typed"], "clinea.core": ["*.pxd", "*.pyi"], "clinea.players": ["*.json", "*.bin"],
                  "clinea.integrations": ["*.txt"]},
    ext_modules=cythonize(
        extensions(),
        include_path=[cython_include_dir()],
        compiler_directives={"language_level": "3", "cdivision": True},
    ),
    entry_points={"console_scripts": console_scripts()},
    cmdclass={"build_ext": BuildWithSeatExec},
    zip_safe=False,
)
