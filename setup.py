"""Build of the clinea package: the Cython core plus the pure-Python layers.

The repository keeps one folder per concept (core/, players/, judge/,
training/, solving/, arena/, bridges/, and clinea/ for the package root: the
`clinea` command and the base) while the installed import names all live under ``clinea``;
``package_dir`` maps one onto the other so that no generic name such as
``core`` lands at the top of site-packages.
"""
import ast
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, LinkError

PACKAGES = {
    "clinea": "clinea",
    "clinea.core": "core",
    "clinea.players": "players",
    "clinea.judge": "judge",
    "clinea.training": "training",
    "clinea.solving": "solving",
    "clinea.arena": "arena",
    "clinea.arena.league": "arena/league",
    "clinea.bridges": "bridges",
    "clinea.serve": "serve",
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

# With GCC the solver and the Monte Carlo search are built twice more:
# instrumented, to run core/profile_workload.py, then from the profile that
# left (profile-guided optimisation, as Stockfish's profile-build): branches
# laid out and inlined where the searches go. The same nodes in 5-10 % less
# CPU on Fhourstones' positions and the empty 7x6 board, and 4-26 % more
# simulations per second on the wide boards (15x13 most, 7x6 1.5 % fewer),
# on positions the workload does not search. The alpha-beta search gained
# nothing measurable and is built plainly. Value profiling stays off: it
# keeps state in thread-local storage that the POPCNT clones' ifunc
# resolvers reach before the library is set up (a crash at import).
# CLINEA_PGO=0 builds them once, plainly; a failed step warns and falls back
# to that build.
PROFILE_GUIDED = ["solver", "mcts"]
PROFILE_WORKLOAD = os.path.join("core", "profile_workload.py")
PROFILE_TIMEOUT = 900  # seconds; the workload takes 10-20 s instrumented


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

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # twenty modules: one compiler a core, unless -j says otherwise
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        if os.environ.get("CLINEA_PGO", "1") != "0" and compiler_is_gcc():
            self.profile_guided(["clinea.core." + name for name in PROFILE_GUIDED])
        folder = os.path.dirname(self.get_ext_fullpath("clinea.judge.seat_exec"))
        objects = self.compiler.compile([os.path.join("judge", "seat_exec.c")], output_dir=self.build_temp,
                                        extra_postargs=["-O2"])
        self.compiler.link_executable(objects, "seat_exec", output_dir=folder)

    def profile_guided(self, names: list[str]) -> None:
        """Rebuilds the extensions `names` from a profile of one run of the
        workload."""
        exts = [ext for ext in self.extensions if ext.name in names]
        plain = {ext.name: (list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in exts}
        force = self.force
        profile = tempfile.mkdtemp(prefix="clinea-profile-")
        self.force = True  # build_extension skips an extension it thinks up to date
        try:
            self.build_adding(exts, plain, ["-fprofile-generate", "-fno-profile-values", "-fprofile-dir=" + profile],
                              ["-fprofile-generate"])
            self.run_workload(profile)
            # a profile GCC cannot find for a file fails the step (it would
            # build plainly without a word); the module then says it used one
            self.build_adding(exts, plain, ["-fprofile-use", "-fprofile-dir=" + profile, "-fprofile-correction",
                                            "-Werror=missing-profile", "-DCLINEA_PROFILE_GUIDED=1"], [])
        except (OSError, subprocess.SubprocessError, CompileError, LinkError) as error:
            print(f"warning: the profile-guided build of {', '.join(names)} failed ({error}); building plainly",
                  file=sys.stderr)
            self.build_adding(exts, plain, [], [])
        finally:
            for ext in exts:
                ext.extra_compile_args, ext.extra_link_args = plain[ext.name]
            self.force = force
            shutil.rmtree(profile, ignore_errors=True)

    def build_adding(self, exts: list[Extension], plain: dict[str, tuple[list[str], list[str]]],
                     compile_args: list[str], link_args: list[str]) -> None:
        """Builds `exts` with these arguments after their `plain` ones."""
        for ext in exts:
            ext.extra_compile_args = plain[ext.name][0] + compile_args
            ext.extra_link_args = plain[ext.name][1] + link_args
            self.build_extension(ext)

    def run_workload(self, profile: str) -> None:
        """Runs the workload on the extensions just built, importable as
        `clinea.core` from a temporary package (nothing is installed yet),
        and checks that it left a profile."""
        core = os.path.abspath(os.path.dirname(self.get_ext_fullpath("clinea.core.solver")))
        with tempfile.TemporaryDirectory(prefix="clinea-workload-") as root:
            os.makedirs(os.path.join(root, "clinea"))
            with open(os.path.join(root, "clinea", "__init__.py"), "w", encoding="utf-8") as init:
                # the core from the build, the rest of the package (clinea.bounded,
                # which the core imports) from the source
                init.write(f"__path__.append({os.path.abspath(PACKAGES['clinea'])!r})\n")
            os.symlink(core, os.path.join(root, "clinea", "core"))
            # -P: the script's folder (core/, module names of its own) stays off
            # sys.path; -S: so does site-packages, where an installed clinea (an
            # editable one's finder) would hide a module missing here
            subprocess.run([sys.executable, "-P", "-S", PROFILE_WORKLOAD], env=dict(os.environ, PYTHONPATH=root),
                           check=True, timeout=PROFILE_TIMEOUT)
        if not glob.glob(os.path.join(profile, "**", "*.gcda"), recursive=True):
            raise OSError(f"the workload left no profile in {profile}")


# setuptools runs this file with the project directory as the working
# directory (pip, build and editable installs alike); the relative paths
# above rely on it, and keep absolute paths out of the sdist's SOURCES.txt.
setup(
    packages=list(PACKAGES),
    package_dir=PACKAGES,
    package_data={"clinea": ["py.typed"], "clinea.core": ["*.pxd", "*.pyi"], "clinea.players": ["*.json", "*.bin"],
                  "clinea.arena": ["*.html"], "clinea.bridges": ["*.txt"],
                  "clinea.serve": ["templates/*.html"]},
    ext_modules=cythonize(
        extensions(),
        include_path=[cython_include_dir()],
        nthreads=os.cpu_count() or 1,
        compiler_directives={"language_level": "3", "cdivision": True},
    ),
    entry_points={"console_scripts": console_scripts()},
    cmdclass={"build_ext": BuildWithSeatExec},
    zip_safe=False,
)
