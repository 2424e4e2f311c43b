"""Text → `Expression`: the lark grammar (`grammar.lark`), then the parse tree → immutable terms.

A lark exception never escapes: a malformed expression becomes an `InputError` that says where it
went wrong and what the notation looks like.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from typing import cast

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from jdr.dice.notation.limits import check, check_length
from jdr.dice.notation.tree import (
    Comparison,
    Constant,
    DiceTerm,
    Expression,
    KeepDrop,
    KeepMode,
    Operator,
    Term,
)
from jdr.errors import InputError
from jdr.i18n import _

__all__ = ["grammar_summary", "parse"]


def grammar_summary() -> str:
    """What the notation looks like, in one line (the `allowed` of a parse error)."""
    return _("NdX[!][kh|kl|dh|dl N][>=T[fT]] or a number, joined with + or -, e.g. 4d10>=6f1")


@cache
def _parser() -> Lark:
    text = resources.files("jdr.dice.notation").joinpath("grammar.lark").read_text("utf-8")
    cached = _cache_file(text)
    mask = os.umask(0o077)  # the cache file Lark writes: its owner's only
    try:
        return Lark(text, parser="lalr", maybe_placeholders=True, cache=cached or False)
    finally:
        os.umask(mask)


def _cache_file(grammar: str) -> str | None:
    """Where Lark keeps the parser it builds from the grammar (30 ms at every command that reads
    dice notation, 3 ms to load): a file named by the grammar's and Lark's hash in the user's
    own cache folder, created readable by its owner only (a parser is loaded with pickle, so
    never from a shared folder such as /tmp); None when that folder cannot be written."""
    import hashlib
    from pathlib import Path

    import lark
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("jdr", appauthor=False))
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if folder.stat().st_uid != os.getuid() or not os.access(folder, os.W_OK):
            return None
    except (OSError, AttributeError):  # a read-only home; no getuid outside POSIX
        return None
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar}".encode()).hexdigest()[:16]
    return str(folder / f"notation-{digest}.lark")


def parse(text: str) -> Expression:
    """Read a dice expression; refuse it if malformed or over a limit (before any roll).

    >>> expression = parse("4D6 kh3 + 2")
    >>> expression.text
    '4d6kh3+2'
    >>> expression.terms[0].keep
    KeepDrop(mode='kh', count=3)
    >>> parse("4d6kh")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: expression: '4d6kh' (unexpected end of the expression; allowed: ...)
    """
    check_length(text)
    if not text.strip():
        raise InputError("expression", text, grammar_summary(), _("the expression is empty"))
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise InputError("expression", text, grammar_summary(), _where(error, text)) from None
    except LarkError:  # pragma: no cover - any other lark failure is still the user's input
        raise InputError("expression", text, grammar_summary()) from None
    expression = _expression(tree)
    check(expression)
    return expression


def _where(error: UnexpectedInput, text: str) -> str:
    if isinstance(error, UnexpectedCharacters):
        return _("unexpected '{char}' at column {column}").format(
            char=error.char, column=error.column
        )
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        return _("unexpected '{char}' at column {column}").format(
            char=error.token.value, column=error.token.column
        )
    return _("unexpected end of the expression")


def _expression(tree: Tree[Token]) -> Expression:
    children = tree.children
    signs = [children[0], *children[2::2]]
    terms = children[1::2]
    return Expression(
        tuple(
            _term(cast(Tree[Token], term), -1 if sign == "-" else 1)
            for sign, term in zip(signs, terms, strict=True)
        )
    )


def _term(tree: Tree[Token], sign: int) -> Term:
    if tree.data == "constant":
        return Constant(int(cast(Token, tree.children[0])), sign)
    count, size, explode, keep, success = tree.children
    failure = None
    if isinstance(success, Tree) and success.children[2] is not None:
        failure = _failure(cast(Tree[Token], success.children[2]))
    return DiceTerm(
        count=1 if count is None else int(cast(Token, count)),
        size=_size(cast(Tree[Token], size)),
        explode=explode is not None,
        keep=None if keep is None else _keep(cast(Tree[Token], keep)),
        success=None if success is None else _comparison(*cast(Tree[Token], success).children[:2]),
        failure=failure,
        sign=sign,
    )


def _size(tree: Tree[Token]) -> int:
    token = cast(Token, tree.children[0])
    return 100 if token.type == "PERCENT" else int(token)


def _keep(tree: Tree[Token]) -> KeepDrop:
    mode, count = tree.children
    return KeepDrop(cast(KeepMode, str(mode).lower()), int(cast(Token, count)))


def _failure(tree: Tree[Token]) -> Comparison:
    operator, value = tree.children
    return _comparison("=" if operator is None else operator, value)


def _comparison(operator: object, value: object) -> Comparison:
    return Comparison(cast(Operator, str(operator)), int(cast(Token, value)))
