"""Build of the clinea package: the Cython core plus the pure-Python layers.

The repository keeps one folder per concept (core/, players/, judge/, training/,
cli/) while the installed import name is ``clinea``; ``package_dir`` maps one
onto the other so that no generic name such as ``core`` lands at the top of
site-packages.
"""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))

PACKAGES = {
    "clinea": "cli",
    "clinea.core": "core",
    "clinea.players": "players",
    "clinea.judge": "judge",
    "clinea.training": "training",
}


def staged_include_dir() -> str:
    """Cython resolves ``cimport clinea.core.x`` by path, so it needs to see the
    folders under their package names; a symlink tree in build/ provides that
    without moving the sources."""
    root = os.path.join(HERE, "build", "cython-include")
    package = os.path.join(root, "clinea")
    os.makedirs(package, exist_ok=True)
    open(os.path.join(package, "__init__.pxd"), "a").close()
    link = os.path.join(package, "core")
    if not os.path.islink(link):
        os.symlink(os.path.join(HERE, "core"), link)
    return root


def extensions() -> list[Extension]:
    # -O3 as the project asks; never -march=native in what ships: wheels and
    # the course machines must run the same binary.
    args = ["-O3"]
    return [
        Extension(
            "clinea.core." + os.path.splitext(os.path.basename(pyx))[0],
            [os.path.relpath(pyx, HERE)],
            extra_compile_args=args,
        )
        for pyx in sorted(glob.glob(os.path.join(HERE, "core", "*.pyx")))
    ]


setup(
    packages=list(PACKAGES),
    package_dir=PACKAGES,
    package_data={"clinea.core": ["*.pxd"], "clinea.players": ["*.json"]},
    ext_modules=cythonize(
        extensions(),
        include_path=[staged_include_dir()],
        compiler_directives={"language_level": "3", "cdivision": True},
    ),
    zip_safe=False,
)
