"""The compiled core's type stubs (core/*.pyi) agree with the compiled
modules: a user's editor and type checker see what the extension really
offers. A stub that names a parameter, default or member the module does
not have, or misses one it has, fails here."""
from __future__ import annotations

import ast
import glob
import importlib
import inspect
import os
import re
import types

import pytest

import clinea
import clinea.core

CORE = os.path.dirname(clinea.core.__file__)
COMPILED = sorted(os.path.splitext(os.path.basename(path))[0] for path in glob.glob(os.path.join(CORE, "*.pyx")))
# dunders a stub spells out because users call them through syntax
SPELLED_DUNDERS = {"__len__", "__copy__", "__eq__", "__init__"}


class Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NO_DEFAULT = Marker("<no default>")
ANY_DEFAULT = Marker("...")


def stub_tree(name: str) -> ast.Module:
    with open(os.path.join(CORE, name + ".pyi"), encoding="utf-8") as stub:
        return ast.parse(stub.read())


def stub_names(tree: ast.Module) -> dict[str, ast.AST]:
    """The public names a stub declares, with their nodes."""
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.ImportFrom):
            # `from m import x as x` is a re-export; a plain import is not
            names.update({alias.name: node for alias in node.names if alias.asname == alias.name})
    return {name: node for name, node in names.items() if not name.startswith("_")}


def module_names(module: types.ModuleType) -> set[str]:
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}


def default_of(expression: ast.expr | None, module: types.ModuleType) -> object:
    if expression is None:
        return NO_DEFAULT
    if isinstance(expression, ast.Constant) and expression.value is Ellipsis:
        return ANY_DEFAULT
    return eval(compile(ast.Expression(expression), "<stub>", "eval"), vars(module))


def stub_parameters(function: ast.FunctionDef, module: types.ModuleType) -> list[tuple[str, str, object]]:
    """(name, kind, default) of a stub function's parameters, `self`/`cls` included."""
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    parameters = [(a.arg, "positional", default_of(d, module)) for a, d in zip(positional, defaults)]
    if arguments.vararg:
        parameters.append((arguments.vararg.arg, "var", NO_DEFAULT))
    parameters += [(a.arg, "keyword", default_of(d, module))
                   for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg:
        parameters.append((arguments.kwarg.arg, "varkeyword", NO_DEFAULT))
    return parameters


KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
    inspect.Parameter.VAR_POSITIONAL: "var",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_KEYWORD: "varkeyword",
}


def runtime_parameters(function: object) -> list[tuple[str, str, object]]:
    signature = inspect.signature(function)  # type: ignore[arg-type]
    parameters = [(p.name, KINDS[p.kind], NO_DEFAULT if p.default is p.empty else p.default)
                  for p in signature.parameters.values()]
    if isinstance(function, types.MethodType):  # a classmethod, bound to its class
        parameters.insert(0, ("cls", "positional", NO_DEFAULT))
    return parameters


def cinit_parameters(source: str, class_name: str, module: types.ModuleType) -> list[tuple[str, str, object]]:
    """A cdef class's constructor as its `__cinit__` (else `__init__`) in the
    .pyx declares it (the compiled type only shows `*args, **kwargs`): C
    types dropped."""
    body = source.split(f"cdef class {class_name}", 1)[1]
    body = re.split(r"\ncdef class |\nclass |\ndef ", body, maxsplit=1)[0]
    found = re.search(r"def __cinit__\((.*?)\):", body, re.S) or re.search(r"def __init__\((.*?)\):", body, re.S)
    if found is None:
        return [("self", "positional", NO_DEFAULT)]
    parameters, kind = [], "positional"
    for text in (part.strip() for part in found.group(1).split(",")):
        if text == "*":
            kind = "keyword"
            continue
        declaration, _, default = text.partition("=")
        name = declaration.split()[-1]
        value = eval(default, vars(module)) if default else NO_DEFAULT
        parameters.append((name, kind, value))
    return parameters


def same(stub: list[tuple[str, str, object]], runtime: list[tuple[str, str, object]]) -> bool:
    if [(n, k) for n, k, _ in stub] != [(n, k) for n, k, _ in runtime]:
        return False
    for (_, _, declared), (_, _, actual) in zip(stub, runtime):
        if declared is ANY_DEFAULT:
            if actual is NO_DEFAULT:
                return False
        elif declared is NO_DEFAULT or actual is NO_DEFAULT:
            if declared is not actual:
                return False
        elif declared != actual:
            return False
    return True


@pytest.mark.parametrize("name", COMPILED)
def test_stub_declares_exactly_the_public_names(name):
    module = importlib.import_module("clinea.core." + name)
    assert set(stub_names(stub_tree(name))) == module_names(module)


@pytest.mark.parametrize("name", COMPILED)
def test_stub_signatures_match_the_compiled_ones(name):
    module = importlib.import_module("clinea.core." + name)
    with open(os.path.join(CORE, name + ".pyx"), encoding="utf-8") as pyx:
        source = pyx.read()
    checked = 0
    for stub_name, node in stub_names(stub_tree(name)).items():
        runtime = getattr(module, stub_name)
        if isinstance(node, ast.FunctionDef):
            assert same(stub_parameters(node, module), runtime_parameters(runtime)), stub_name
            checked += 1
        if not isinstance(node, ast.ClassDef) or runtime.__module__ != module.__name__:
            continue
        members = {child.name: child for child in node.body if isinstance(child, ast.FunctionDef)}
        # `cdef public` fields: attributes a user may set
        fields = {child.target.id for child in node.body
                  if isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name)}
        public = {member for member in vars(runtime)
                  if not member.startswith("_") or member in SPELLED_DUNDERS}
        if "__init__" in members:
            public.add("__init__")
        assert set(members) | fields == public, stub_name
        for name in fields:
            descriptor = inspect.getattr_static(runtime, name)
            assert isinstance(descriptor, types.GetSetDescriptorType) or hasattr(descriptor, "__set__"), name
        for member, function in members.items():
            declared = stub_parameters(function, module)
            if any(isinstance(d, ast.Name) and d.id == "property" for d in function.decorator_list):
                assert isinstance(inspect.getattr_static(runtime, member), (property, types.GetSetDescriptorType)), \
                    f"{stub_name}.{member} is not a property"
                continue
            if member == "__init__":
                actual = cinit_parameters(source, stub_name, module)
            else:
                actual = runtime_parameters(getattr(runtime, member))
            assert same(declared, actual), f"{stub_name}.{member}: stub {declared} != compiled {actual}"
            checked += 1
    callables = {n for n in module_names(module) if callable(getattr(module, n))}
    assert checked >= len(callables), "a callable of the module went unchecked"

